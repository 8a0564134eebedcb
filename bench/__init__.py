"""TicketLedger's benchmark suite: ``python -m bench`` runs every section and prints one table.

Sections (each a module here, each returning :class:`bench.common.Figure` objects; ``bench/README.md``
says how to run each):

* ``host``: the machine itself, with the reference's raw SQLite loops, so figures travel;
* ``parts``: a step's pure domain pipeline, part by part (no store, no server);
* ``inprocess``: steps/s of full scripted episodes through ``EnvironmentService``, with the durable
  SQLite log and with the log in memory (the cost of durability is their ratio);
* ``replay``: events folded and re-graded per second over a stored log;
* ``http``: stateful HTTP, one sequential httpx client, TicketLedger (durable SQLite) against the
  yardstick, an in-memory server with the SupportOps seed's routes and work (``seed_server``);
* ``ws``: 256 concurrent ``/ws`` sessions from one process (OpenEnv's ``GenericEnvClient``), back
  to back and with 0.5 s of thinking between steps;
* ``growth``: step and audit-route latency as the log grows a hundredfold;
* ``postgres``: the ``http`` and ``ws`` figures on PostgreSQL with 1 and 4 server workers;
* ``inference``: wall time and start-up of ``python inference.py`` with the built-in policy;
* ``load``, ``instructions`` and ``sessions`` (only when named): the integrity load run,
  instructions per step counted by valgrind's callgrind, and 64 and 256 ``/ws`` sessions on one
  SQLite worker and on 2 and 4 PostgreSQL workers (``python -m bench.sessions`` prints that table).

Every figure is the median of several runs with their spread; every comparison is a ratio of
figures measured in the same invocation, their runs interleaved. Servers listen on 127.0.0.1 only.
"""
