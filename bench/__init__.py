"""TicketLedger's benchmark suite: ``python -m bench`` runs every section and prints one table.

Sections (each a module here, each returning :class:`bench.common.Figure` objects):

* ``inprocess``: steps/s of full scripted episodes through ``EnvironmentService``, with the durable
  SQLite log and with the log in memory (the cost of durability is their ratio);
* ``replay``: events folded and re-graded per second over 100,000 stored events;
* ``http``: steps/s and p50/p99 latency over HTTP and ``/ws`` (1 sequential client, 16 and 64
  concurrent clients), against a real uvicorn on 127.0.0.1;
* ``growth``: step and audit-route latency with 10k, 100k and 1M events in the log;
* ``postgres``: the HTTP figures on PostgreSQL with 1 and 4 server workers;
* ``inference``: wall time and start-up of ``python inference.py`` with the built-in policy.

Every figure is the median of several runs with their spread; every comparison is a ratio of
figures measured in the same invocation.
"""
