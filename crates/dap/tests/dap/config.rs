//! Launch configurations: what they run, and the system they name over the environment.

use dap::config::{ConfigError, LaunchConfig, Mode, Program};
use serde_json::json;

#[test]
fn launch_runs_a_class_a_report_or_tests() {
    let c = LaunchConfig::parse(&json!({"class": "zcl_order"}), false).unwrap();
    assert_eq!(c.mode, Mode::Launch(Program::Class("ZCL_ORDER".into())));
    assert!(c.terminate_on_disconnect && !c.allow_writes);
    let r = LaunchConfig::parse(&json!({"report": "zrep"}), false).unwrap();
    assert_eq!(r.mode, Mode::Launch(Program::Report("ZREP".into())));
    let t = LaunchConfig::parse(
        &json!({"test": "ZCL_ORDER", "method": "ltcl_a=>total"}),
        false,
    )
    .unwrap();
    assert_eq!(
        t.mode,
        Mode::Launch(Program::Test {
            class: "ZCL_ORDER".into(),
            method: Some("LTCL_A=>TOTAL".into())
        })
    );
    assert_eq!(
        LaunchConfig::parse(&json!({}), false).unwrap_err(),
        ConfigError::NothingToLaunch
    );
    assert_eq!(
        LaunchConfig::parse(&json!({"class": "A", "report": "B"}), false).unwrap_err(),
        ConfigError::TooMuchToLaunch
    );
    assert_eq!(
        LaunchConfig::parse(&json!({"class": 1}), false).unwrap_err(),
        ConfigError::NotAString("class")
    );
    assert_eq!(
        LaunchConfig::parse(&json!({"class": "A", "allowWrites": "yes"}), false).unwrap_err(),
        ConfigError::NotABool("allowWrites")
    );
}

#[test]
fn attach_needs_nothing_and_leaves_programs_running() {
    let a = LaunchConfig::parse(&json!({"sourceRoot": ["/a", "/b"]}), true).unwrap();
    assert_eq!(a.mode, Mode::Attach);
    assert!(!a.terminate_on_disconnect);
    assert_eq!(a.source_roots.len(), 2);
    assert_eq!(
        LaunchConfig::parse(&json!({"sourceRoot": 3}), true).unwrap_err(),
        ConfigError::BadSourceRoot
    );
}

#[test]
fn the_configuration_names_the_system_over_the_environment() {
    let env = |k: &str| match k {
        "ABAPDBG_URL" => Some("http://env.example:8000".to_string()),
        "ABAPDBG_USER" => Some("ENVUSER".to_string()),
        "HOME" => Some("/nonexistent-home".to_string()),
        _ => None,
    };
    let c = LaunchConfig::parse(
        &json!({"class": "ZCL_X", "url": "http://cfg.example:8000", "client": "100", "allowWrites": true}),
        false,
    )
    .unwrap();
    let t = c.target(env).unwrap();
    assert_eq!(t.url(), Some("http://cfg.example:8000"));
    assert_eq!(t.user(), Some("ENVUSER"));
    assert_eq!(t.client(), Some("100"));
    assert!(t.allow_writes());
    // Without a URL anywhere: the embedded simulator.
    let none = LaunchConfig::parse(&json!({"class": "ZCL_X"}), false).unwrap();
    assert_eq!(
        none.target(|k| (k == "HOME").then(|| "/nonexistent-home".into()))
            .unwrap()
            .url(),
        None
    );
    // An unknown profile is an error, not another system.
    let p = LaunchConfig::parse(&json!({"class": "ZCL_X", "profile": "nope"}), false).unwrap();
    assert!(
        p.target(|k| (k == "HOME").then(|| "/nonexistent-home".into()))
            .is_err()
    );
}

#[test]
fn attach_takes_the_listener_over_only_when_asked() {
    assert!(!LaunchConfig::parse(&json!({}), true).unwrap().take_over);
    assert!(
        LaunchConfig::parse(&json!({"takeOver": true}), true)
            .unwrap()
            .take_over
    );
    assert_eq!(
        LaunchConfig::parse(&json!({"takeOver": "yes"}), true).unwrap_err(),
        ConfigError::NotABool("takeOver")
    );
}
