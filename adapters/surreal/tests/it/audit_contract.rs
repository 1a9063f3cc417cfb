//! Every `AuditLog` suite on every engine (see `engines`), fed by the account store's offer writes,
//! and every staff write suite: each write of each staff-facing store leaves exactly its entry.

macro_rules! audit_suite {
    ($suite:ident) => {
        on_every_engine!(audit, [accounts, audit_log], $suite);
    };
}

marque_contract_tests::for_each_audit_suite!(audit_suite);

macro_rules! staff_write_suite {
    ($suite:ident) => {
        on_every_engine!(
            audit,
            [
                accounts,
                catalog,
                catalog_editor,
                photos,
                staff,
                stock,
                orders,
                order_desk,
                grievances,
                vehicles,
                returns,
                audit_log
            ],
            $suite
        );
    };
}

marque_contract_tests::for_each_staff_write_suite!(staff_write_suite);
