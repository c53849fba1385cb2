//! The editor's files: file URIs and paths, and the index of abapGit files under the source roots.

use dap::abapgit::SourceUnit;

fn unit(path: &str) -> SourceUnit {
    SourceUnit::from_path(path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

#[test]
fn file_uris_and_paths() {
    use dap::sources::{path_to_uri, uri_to_path};
    let p = std::path::Path::new("/w/my src/#ns#cl_x.clas.abap");
    let uri = path_to_uri(p);
    assert_eq!(uri, "file:///w/my%20src/%23ns%23cl_x.clas.abap");
    assert_eq!(uri_to_path(&uri), "/w/my src/#ns#cl_x.clas.abap");
    assert_eq!(uri_to_path("/plain/path.abap"), "/plain/path.abap");
    // Back from the URI, the path names the same source.
    assert_eq!(
        SourceUnit::from_path(&uri_to_path(&uri)),
        SourceUnit::from_path(&p.display().to_string())
    );
}

#[test]
fn the_workspace_index_finds_abapgit_files_under_the_source_roots() {
    use dap::sources::Sources;
    let root = std::env::temp_dir().join(format!("dap-sources-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    let src = root.join("pkg/src/sub");
    let skipped = root.join("node_modules/x");
    std::fs::create_dir_all(&src).unwrap();
    std::fs::create_dir_all(&skipped).unwrap();
    std::fs::write(src.join("zcl_order.clas.testclasses.abap"), "").unwrap();
    std::fs::write(src.join("ZREP.prog.abap"), "").unwrap();
    std::fs::write(skipped.join("zcl_hidden.clas.abap"), "").unwrap();
    let mut sources = Sources::index(std::slice::from_ref(&root));
    let tests = unit("zcl_order.clas.testclasses.abap");
    assert_eq!(
        sources.local_file(&tests),
        Some(src.join("zcl_order.clas.testclasses.abap").as_path())
    );
    // File names match whatever their case.
    assert!(sources.local_file(&unit("zrep.prog.abap")).is_some());
    // Folders never worth searching are not searched; sources not found get a reference.
    let hidden = unit("zcl_hidden.clas.abap");
    assert_eq!(sources.local_file(&hidden), None);
    let r = sources.reference(&hidden);
    assert_eq!(
        sources.reference(&hidden),
        r,
        "the same reference each time"
    );
    assert_eq!(sources.by_reference(r), Some(&hidden));
    assert_eq!(sources.by_reference(r + 1), None);
    assert_eq!(sources.by_reference(0), None);
    // A file the client names is remembered only when it exists here.
    sources.remember("/nowhere/zcl_hidden.clas.abap");
    assert_eq!(sources.local_file(&hidden), None);
    let _ = std::fs::remove_dir_all(&root);
}
