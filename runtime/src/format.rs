//! Layer 2: how a body is read: its format, and what is done of unknown and duplicate fields.

use crate::error::Error;

/// How to read a body.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum BodyFormat {
    /// JSON when the first non-space byte is `{`, YAML otherwise (as kubectl tells them
    /// apart).
    #[default]
    Auto,
    /// `application/json`.
    Json,
    /// `application/yaml`: converted as `sigs.k8s.io/yaml` converts it; under strict
    /// decoding, duplicate keys are reported with their lines.
    Yaml,
}

/// The API server's `fieldValidation` modes (KEP-2885).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum FieldValidation {
    /// Unknown and duplicate fields fail the request.
    Strict,
    /// Unknown and duplicate fields become warnings (the API server's default).
    #[default]
    Warn,
    /// Unknown fields are dropped silently; duplicates are not looked for.
    Ignore,
}

impl BodyFormat {
    /// The format `body` is read in: `Json` or `Yaml` as given; for `Auto`, JSON when the
    /// body's first non-space byte is `{`, YAML otherwise. A byte-order mark in front is
    /// looked past: a JSON document saved with one is still sent as `application/json`,
    /// which the API server refuses (`invalid character '\ufeff' looking for beginning of
    /// value`), while YAML allows it.
    ///
    /// ```
    /// use kstruct::BodyFormat;
    /// assert_eq!(BodyFormat::Auto.resolve(b"  {\"a\": 1}"), BodyFormat::Json);
    /// assert_eq!(BodyFormat::Auto.resolve("\u{feff}{\"a\": 1}".as_bytes()), BodyFormat::Json);
    /// assert_eq!(BodyFormat::Auto.resolve(b"a: 1"), BodyFormat::Yaml);
    /// ```
    pub fn resolve(self, body: &[u8]) -> BodyFormat {
        let text = body.strip_prefix("\u{feff}".as_bytes()).unwrap_or(body);
        match self {
            BodyFormat::Auto if text.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'{') => BodyFormat::Json,
            BodyFormat::Auto => BodyFormat::Yaml,
            f => f,
        }
    }

    /// The format of a request body by its `Content-Type` header, as the API server
    /// negotiates it for custom resources: `application/json` and `application/yaml`
    /// (parameters such as `charset` ignored, media types compared case-insensitively); an
    /// absent or empty header is JSON.
    ///
    /// # Errors
    /// [`Error::UnsupportedMediaType`] (the server's 415) for any other media type.
    ///
    /// ```
    /// use kstruct::BodyFormat;
    /// assert_eq!(BodyFormat::from_content_type("application/yaml; charset=utf-8").unwrap(), BodyFormat::Yaml);
    /// assert_eq!(BodyFormat::from_content_type("").unwrap(), BodyFormat::Json);
    /// assert_eq!(
    ///     BodyFormat::from_content_type("text/plain").unwrap_err().status().code,
    ///     415
    /// );
    /// ```
    pub fn from_content_type(content_type: &str) -> Result<BodyFormat, Error> {
        let media = content_type.split(';').next().unwrap_or("").trim().to_ascii_lowercase();
        match media.as_str() {
            "" | "application/json" => Ok(BodyFormat::Json),
            "application/yaml" => Ok(BodyFormat::Yaml),
            _ => Err(Error::UnsupportedMediaType(content_type.to_string())),
        }
    }
}

impl std::str::FromStr for FieldValidation {
    type Err = Error;

    /// Reads the `fieldValidation` query parameter as the API server does: `Strict`, `Warn`
    /// or `Ignore`, exactly so spelled, and empty for the default (`Warn`).
    ///
    /// ```
    /// use kstruct::FieldValidation;
    /// assert_eq!("Strict".parse::<FieldValidation>().unwrap(), FieldValidation::Strict);
    /// assert_eq!("".parse::<FieldValidation>().unwrap(), FieldValidation::Warn);
    /// assert_eq!(
    ///     "strict".parse::<FieldValidation>().unwrap_err().to_string(),
    ///     r#"CreateOptions.meta.k8s.io "" is invalid: fieldValidation: Unsupported value: "strict": supported values: "", "Ignore", "Strict", "Warn""#
    /// );
    /// ```
    fn from_str(s: &str) -> Result<FieldValidation, Error> {
        match s {
            "Strict" => Ok(FieldValidation::Strict),
            "" | "Warn" => Ok(FieldValidation::Warn),
            "Ignore" => Ok(FieldValidation::Ignore),
            other => Err(Error::FieldValidation(other.to_string())),
        }
    }
}
