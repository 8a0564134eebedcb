"""Task catalog: tasks are JSON data under ``data/``, validated by :mod:`domain.tasks.spec` on load."""

from domain.tasks.catalog import Catalog, UnknownTask, default_catalog
from domain.tasks.spec import TaskInstance, TaskSpec, Ticket

__all__ = ["Catalog", "TaskInstance", "TaskSpec", "Ticket", "UnknownTask", "default_catalog"]
