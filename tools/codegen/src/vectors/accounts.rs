//! Vectors of the account rules: mobile, password, confirmation, sign-up, OTP, email.

use super::code;
use crate::json::{obj, Json};
use marque_domain::account::{check_confirmation, sign_up_allowed, Email, LoginMobile, Otp, Password, SignUpForm};
use marque_domain::message::UserFacing;

pub(super) fn login_mobile() -> Json {
    let inputs = [
        "",
        "9",
        "987654321",
        "9876543210",
        "98765432101",
        "98765 43210",
        "+91 98765 43210",
        "abc",
        "98-76",
        "(987) 654-3210",
        "\u{966}\u{967}\u{968}",
        " 9876543210 ",
        "0123456789",
    ];
    inputs
        .iter()
        .map(|i| {
            let (value, error) = LoginMobile::live(i);
            obj! { "input" => *i, "value" => value, "code" => error.map(|e| e.code()) }
        })
        .collect::<Vec<_>>()
        .into()
}

pub(super) fn password() -> Json {
    let mut inputs: Vec<String> = [
        "",
        "abcde1!",
        "abcdef1!",
        "abcdefghijklm12!",
        "abcdefghijklmn12!",
        "abcdefgh!",
        "abcdefgh1",
        "abcd efg1!",
        "abcdefg1!?",
        "abcd\u{e9}fg1!",
        "12345678!",
        "!!!!!!!1",
        "ABCDEFG1#",
        "Passw0rd",
        "\u{1f697}bcdefg1!",
        "abcdefg1!\n",
    ]
    .iter()
    .map(|s| (*s).to_owned())
    .collect();
    inputs.extend(marque_domain::account::PASSWORD_SPECIALS.chars().map(|c| format!("Passw0rd{c}")));
    inputs
        .iter()
        .map(|i| obj! { "input" => i.as_str(), "code" => code(&Password::parse(i)) })
        .collect::<Vec<_>>()
        .into()
}

pub(super) fn confirmation() -> Json {
    let pairs =
        [("abcdef1!", "abcdef1!"), ("abcdef1!", "abcdef1@"), ("abcdef1!", ""), ("", ""), ("abc", "ABC"), ("a ", "a")];
    pairs
        .iter()
        .map(|(p, c)| obj! { "password" => *p, "confirmation" => *c, "code" => code(&check_confirmation(p, c)) })
        .collect::<Vec<_>>()
        .into()
}

pub(super) fn sign_up() -> Json {
    let filled = SignUpForm {
        name: "Asha",
        email: "asha@example.in",
        password: "abcdef1!",
        confirmation: "abcdef1!",
        mobile: "9876543210",
    };
    let forms = [
        filled,
        SignUpForm { name: "", ..filled },
        SignUpForm { name: "   ", ..filled },
        SignUpForm { email: "", ..filled },
        SignUpForm { email: "not-an-email", ..filled },
        SignUpForm { mobile: "987654321", ..filled },
        SignUpForm { mobile: "98765-43210", ..filled },
        SignUpForm { confirmation: "abcdef1@", ..filled },
        SignUpForm { password: "abcdefgh", confirmation: "abcdefgh", ..filled },
        SignUpForm { password: "", confirmation: "", ..filled },
    ];
    forms
        .iter()
        .map(|f| {
            obj! {
                "form" => obj! {
                    "name" => f.name, "email" => f.email, "password" => f.password,
                    "confirmation" => f.confirmation, "mobile" => f.mobile,
                },
                "allowed" => sign_up_allowed(f),
            }
        })
        .collect::<Vec<_>>()
        .into()
}

pub(super) fn otp() -> Json {
    let inputs = [
        "",
        "   ",
        "12345",
        "123456",
        "1234567",
        "12345a",
        " 000000 ",
        "12 456",
        "\u{661}\u{662}\u{663}\u{664}\u{665}\u{666}",
    ];
    inputs.iter().map(|i| obj! { "input" => *i, "code" => code(&Otp::parse(i)) }).collect::<Vec<_>>().into()
}

pub(super) fn email() -> Json {
    let inputs = [
        "asha@example.in",
        " Asha.Rao+parts@Mail.Example.CO.IN ",
        "a@b.co",
        "",
        "asha",
        "@example.in",
        "asha@",
        "asha@example",
        "a@b@c.in",
        "asha @example.in",
        "asha@.in",
        "asha@example..in",
        "asha@-x.in",
    ];
    inputs
        .iter()
        .map(|i| {
            let parsed = Email::parse(i);
            obj! { "input" => *i, "value" => parsed.as_ref().ok().map(Email::to_string), "code" => code(&parsed) }
        })
        .collect::<Vec<_>>()
        .into()
}
