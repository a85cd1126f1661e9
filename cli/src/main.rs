//! `kstruct`: check CRDs and manifests offline, exactly as the Kubernetes API server would.
//!
//! Exit codes: 0 when everything succeeded, 1 when a finding or a failed document was
//! reported, 2 on usage errors, unreadable files, or (`check`, `lint`) nothing to check.

fn main() -> std::process::ExitCode {
    kstruct_cli::main()
}
