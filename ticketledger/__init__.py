"""The package OpenEnv's discovery imports: ``AutoEnv.from_env("ticketledger", base_url=...)``.

OpenEnv (``openenv-core`` 0.3 and ``openenv`` 0.10 alike) finds an environment only through an
installed distribution named ``openenv-<name>``: this project is distributed as
``openenv-ticketledger``, so discovery imports this package, reads its ``openenv.yaml`` (a link to the
repository's manifest, so there is one copy) for the name, and takes the client class from
``ticketledger.client`` by the name it infers, ``TicketledgerEnv``.

Importing this package imports nothing else: ``openenv`` (which pulls in gradio, seconds of start-up)
loads only with ``ticketledger.client``, Gymnasium only with ``ticketledger.gym`` (which registers
``TicketLedger-v0``; the ``gym`` extra).
"""
