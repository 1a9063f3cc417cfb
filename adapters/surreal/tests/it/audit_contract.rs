//! Every `AuditLog` suite on every engine (see `engines`), fed by the account store's offer writes.

macro_rules! audit_suite {
    ($suite:ident) => {
        on_every_engine!(audit, [accounts, audit_log], $suite);
    };
}

marque_contract_tests::for_each_audit_suite!(audit_suite);
