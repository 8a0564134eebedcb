"""Entry point kept where OpenEnv's tooling looks for it: ``server/app.py`` with ``main()``."""
