//! The `PaymentGateway` contract on both adapters: `SandboxGateway` in process, and
//! `RazorpayGateway` over HTTP against the sandbox's routes on a free port.

use crate::common;

use common::{sandbox_config, served_sandbox, InProcess, OverHttp};
use marque_razorpay_sandbox::Sandbox;

macro_rules! in_process {
    ($suite:ident) => {
        #[tokio::test]
        async fn $suite() {
            let sandbox = Sandbox::new(sandbox_config("http://127.0.0.1:9/sandbox/razorpay", None));
            marque_contract_tests::payment::$suite(&sandbox.gateway(), &InProcess(sandbox.clone())).await;
        }
    };
}

macro_rules! over_http {
    ($suite:ident) => {
        #[tokio::test]
        async fn $suite() {
            let (_sandbox, served, gateway) = served_sandbox(None).await;
            marque_contract_tests::payment::$suite(&gateway, &OverHttp::new(&served.base)).await;
        }
    };
}

mod sandbox_gateway {
    use super::*;
    marque_contract_tests::for_each_payment_suite!(in_process);
}

mod razorpay_gateway_against_the_sandbox {
    use super::*;
    marque_contract_tests::for_each_payment_suite!(over_http);
}
