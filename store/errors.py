"""Store errors, mapped to HTTP statuses by the API (409 and 404)."""


class StoreError(Exception):
    pass


class Conflict(StoreError):
    """An append lost an optimistic-concurrency race, or an id is already taken. Nothing was written."""


class NotFound(StoreError):
    pass
