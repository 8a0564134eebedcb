-- TicketLedger on PostgreSQL: the least the application's role needs (docs/operations.md,
-- "Database hardening"). The tables belong to the role that migrates (`ticketledger db upgrade`);
-- the server, workers and inference.py connect as ticketledger_app, which owns nothing and is not
-- a superuser, so it cannot drop or disable the immutability triggers, and it holds no UPDATE,
-- DELETE or TRUNCATE on the event log.
--
-- Run as the owner, in the TicketLedger database, after migrating (and again after an upgrade
-- that adds a table or sequence):
--   psql -v ON_ERROR_STOP=1 -d ticketledger -f scripts/postgres-app-role.sql
-- Create the role first (as a role that may create roles), with your own name and password; if
-- you name it otherwise, replace ticketledger_app below:
--   CREATE ROLE ticketledger_app LOGIN PASSWORD '...' NOSUPERUSER NOCREATEDB NOCREATEROLE;
-- tests/store/test_postgres_role.py runs this file (with a throwaway role in place of the name).

GRANT USAGE ON SCHEMA public TO ticketledger_app;

-- Start-up checks that the schema is current (it never migrates as this role).
GRANT SELECT ON alembic_version TO ticketledger_app;

-- The log and the regrade records: read and append, nothing else.
GRANT SELECT, INSERT ON events, regrades TO ticketledger_app;
GRANT USAGE ON SEQUENCE events_position_seq, regrades_regrade_id_seq TO ticketledger_app;

-- The episode index: a new row per episode; a step moves only its head and derived fields.
GRANT SELECT, INSERT ON episodes TO ticketledger_app;
GRANT UPDATE (status, step_count, score, last_seq, head_hash, updated_at) ON episodes
    TO ticketledger_app;

-- Runs of inference.py: started, then finished with their summary.
GRANT SELECT, INSERT, UPDATE ON runs TO ticketledger_app;
