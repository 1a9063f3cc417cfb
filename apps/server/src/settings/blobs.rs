//! Where uploaded pictures are kept.

use std::path::PathBuf;

use secrecy::ExposeSecret as _;

use super::flags::{text, BlobsMode, Flags};
use super::SettingsError;

/// The blob store the settings chose.
#[derive(Debug, Clone)]
pub enum Blobs {
    /// Files under this directory (`<data dir>/blobs`).
    Local(PathBuf),
    /// This bucket (its `Debug` shows no secret).
    S3(marque_blobs_s3::S3Settings),
}

impl Blobs {
    /// `<data dir>/blobs` for `MARQUE_BLOBS=local`, the bucket for `s3`.
    ///
    /// # Errors
    /// With `MARQUE_BLOBS=s3`, naming every one of `MARQUE_S3_BUCKET`, `MARQUE_S3_REGION`,
    /// `MARQUE_S3_ACCESS_KEY_ID` and `MARQUE_S3_SECRET_ACCESS_KEY` that is missing; an `http://`
    /// endpoint without `MARQUE_S3_ALLOW_HTTP=true`.
    pub fn parse(flags: &Flags) -> Result<Self, SettingsError> {
        if flags.blobs == BlobsMode::Local {
            return Ok(Self::Local(flags.data_dir.join("blobs")));
        }
        let c = &flags.s3;
        let secret =
            c.s3_secret_access_key.as_ref().map(|v| v.expose_secret().trim().to_owned()).filter(|v| !v.is_empty());
        let (bucket, region, key_id) =
            (text(c.s3_bucket.as_ref()), text(c.s3_region.as_ref()), text(c.s3_access_key_id.as_ref()));
        let (Some(bucket), Some(region), Some(key_id), Some(secret)) =
            (bucket.clone(), region.clone(), key_id.clone(), secret.clone())
        else {
            let required = [
                ("MARQUE_S3_BUCKET", bucket.is_some()),
                ("MARQUE_S3_REGION", region.is_some()),
                ("MARQUE_S3_ACCESS_KEY_ID", key_id.is_some()),
                ("MARQUE_S3_SECRET_ACCESS_KEY", secret.is_some()),
            ];
            return Err(SettingsError::missing("MARQUE_BLOBS=s3 needs ", &required).expect("one is missing"));
        };
        let endpoint = text(c.s3_endpoint.as_ref());
        if endpoint.as_deref().is_some_and(|e| e.starts_with("http://")) && !c.s3_allow_http {
            return Err(SettingsError::invalid(
                "MARQUE_S3_ENDPOINT",
                "MARQUE_S3_ENDPOINT is plain http://: set MARQUE_S3_ALLOW_HTTP=true for a store on a private network, or use https://",
            ));
        }
        let mut settings = marque_blobs_s3::S3Settings::new(bucket, region, key_id, secret.into());
        settings.endpoint = endpoint;
        settings.allow_http = c.s3_allow_http;
        settings.virtual_hosted_style = c.s3_virtual_hosted;
        Ok(Self::S3(settings))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pictures_go_to_the_data_dir_unless_s3_is_chosen_with_every_setting() {
        let mut flags = Flags::for_tests(PathBuf::from("web"));
        flags.data_dir = PathBuf::from("/srv/marque");
        assert!(
            matches!(Blobs::parse(&flags), Ok(Blobs::Local(dir)) if dir == std::path::Path::new("/srv/marque/blobs"))
        );
        flags.blobs = BlobsMode::S3;
        let refused = Blobs::parse(&flags).expect_err("nothing set").to_string();
        for name in ["MARQUE_S3_BUCKET", "MARQUE_S3_REGION", "MARQUE_S3_ACCESS_KEY_ID", "MARQUE_S3_SECRET_ACCESS_KEY"] {
            assert!(refused.contains(name), "{refused} names {name}");
        }
        flags.s3.s3_bucket = Some("marque-pictures".into());
        flags.s3.s3_region = Some("ap-south-1".into());
        flags.s3.s3_access_key_id = Some("AKIA1".into());
        flags.s3.s3_secret_access_key = Some(" ".into());
        assert_eq!(
            Blobs::parse(&flags).expect_err("blank secret").to_string(),
            "MARQUE_BLOBS=s3 needs MARQUE_S3_SECRET_ACCESS_KEY"
        );
        flags.s3.s3_secret_access_key = Some("s3cret-access".into());
        let Ok(Blobs::S3(settings)) = Blobs::parse(&flags) else { panic!("S3 with every setting") };
        assert_eq!(
            (settings.bucket.as_str(), settings.region.as_str(), settings.endpoint.as_deref()),
            ("marque-pictures", "ap-south-1", None)
        );
        flags.s3.s3_endpoint = Some("http://127.0.0.1:9000".into());
        assert!(Blobs::parse(&flags).expect_err("plain http").to_string().contains("MARQUE_S3_ALLOW_HTTP"));
        flags.s3.s3_allow_http = true;
        let blobs = Blobs::parse(&flags).expect("allowed");
        assert!(!format!("{flags:?} {blobs:?}").contains("s3cret-access"), "the secret stays out of Debug");
    }
}
