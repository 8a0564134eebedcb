"""Store errors, mapped to HTTP statuses by the API (409 and 404)."""


class StoreError(Exception):
    pass


class Conflict(StoreError):
    """An append lost an optimistic-concurrency race, or an id is already taken. Nothing was written."""


class NotFound(StoreError):
    pass


class NoDatabase(StoreError):
    """An SQLite file that should hold a log is not there. ``path`` is the file looked for."""

    def __init__(self, path: str):
        super().__init__(f"no database at {path}")
        self.path = path


class DatabaseUnavailable(StoreError):
    """The database a URL names cannot be opened: an unknown scheme or driver, a host that does not
    resolve or answer, a database that does not exist, a refused login, an SQLite file that cannot
    be created. The message is one line: the URL (without its password), what failed and how to
    fix it, for a command to print as is (``store.database.open_database`` builds it)."""
