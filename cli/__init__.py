"""The ``ticketledger`` command line."""
