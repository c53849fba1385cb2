//! Optimised builds for x86-64 Linux (the `dist` profile we ship and benchmark, and `release`,
//! both with `PROFILE=release` here) place the functions that `abapdbg serve` runs (start-up,
//! `hello` and a typical debugging session, listed in `link/hot-symbols.txt`) side by side.
//! Scattered over the 12 MB of code, they made the kernel map about 7 MB of the binary into
//! an idle coprocess (pages around every function touched); packed together, about 2 MB.
//! `scripts/hot-symbols.sh` writes the list anew. A name that no longer exists is skipped,
//! so a stale list costs memory, never correctness: the list is recorded from a `dist` build,
//! and names a `release` build (other LTO) lacks are skipped at no cost.

use std::env;
use std::path::Path;

fn main() {
    println!("cargo:rerun-if-changed=link/hot-symbols.txt");
    println!("cargo:rerun-if-env-changed=ABAPDBG_NO_SYMBOL_ORDER");
    let var = |name: &str| env::var(name).unwrap_or_default();
    // The option is lld's (the default linker of Rust for this target): left out for any
    // other target, for a linker configured by hand, and when asked.
    let own_linker = env::var_os("RUSTC_LINKER").is_some()
        || ["linker", "fuse-ld"]
            .iter()
            .any(|flag| var("CARGO_ENCODED_RUSTFLAGS").contains(flag));
    if var("PROFILE") != "release"
        || var("TARGET") != "x86_64-unknown-linux-gnu"
        || own_linker
        || env::var_os("ABAPDBG_NO_SYMBOL_ORDER").is_some()
    {
        return;
    }
    let list = Path::new(&var("CARGO_MANIFEST_DIR")).join("link/hot-symbols.txt");
    if !list.is_file() {
        return;
    }
    println!(
        "cargo:rustc-link-arg-bin=abapdbg=-Wl,--symbol-ordering-file={}",
        list.display()
    );
    println!("cargo:rustc-link-arg-bin=abapdbg=-Wl,--no-warn-symbol-ordering");
}
