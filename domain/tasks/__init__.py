"""Task catalog: tasks are JSON data under ``data/``, validated by :mod:`domain.tasks.spec` on load."""

from domain.tasks.catalog import Catalog, UnknownTask, default_catalog
from domain.tasks.spec import TaskInstance, TaskSpec, Ticket
from domain.tasks.variant import TaskVariant

__all__ = ["Catalog", "TaskInstance", "TaskSpec", "TaskVariant", "Ticket", "UnknownTask",
           "default_catalog"]
