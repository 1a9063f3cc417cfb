//! The `Readiness` suite on every engine (see `engines`). A server that goes away is covered by
//! `apps/server/tests/database_outage.rs`, which stops a real one.

on_every_engine!(readiness, readiness, a_connected_database_is_ready);
