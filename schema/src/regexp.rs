//! TEMPORARY
/// x
#[derive(Debug)]
pub struct Error;
impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("x")
    }
}
/// x
pub fn check(_p: &str) -> Result<(), Error> {
    Ok(())
}
