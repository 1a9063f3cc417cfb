//! The `Readiness` contract (`marque_ports::health`).

use marque_ports::Readiness;

/// A database the adapter is connected to answers its probe, again and again.
pub async fn a_connected_database_is_ready(readiness: &dyn Readiness) {
    for _ in 0..3 {
        assert_eq!(readiness.ready().await, Ok(()));
    }
}
