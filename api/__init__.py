"""The FastAPI application (OpenEnv protocol, both seeds' HTTP dialects, audit routes, web viewer)."""
