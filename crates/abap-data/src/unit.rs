//! Results of an ABAP Unit run (`Repository::run_unit_tests` in abap-runtime).

use crate::debug::{Location, ObjectKind};

/// Outcome of one test method.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TestStatus {
    /// No alert.
    Passed,
    /// A `cl_abap_unit_assert` assertion failed (alert kind `failedAssertion`).
    Failed,
    /// An uncaught exception or runtime error (alert kind `exception`).
    Error,
}

/// One alert, shaped like ADT's `aunit:alert`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnitAlert {
    /// `failedAssertion`, `exception`, `warning`.
    pub kind: String,
    /// `critical`, `fatal`, `tolerable`.
    pub severity: String,
    /// `Critical Assertion Error: 'Test_Add: ASSERT_EQUALS'`, `Exception Error
    /// <COMPUTE_INT_ZERODIVIDE>`.
    pub title: String,
    /// Detail lines (`Expected [2] Actual [3]`, the assertion's `msg`, the test name).
    pub details: Vec<String>,
    /// Where it happened: the statement that failed (for an assertion, the call of the
    /// assertion method in the test include); `None` when unknown.
    pub location: Option<Location>,
}

/// One test method.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnitMethodResult {
    /// Upper case.
    pub name: String,
    /// Line of the `METHOD` statement in its source part (0: unknown).
    pub line: u32,
    pub status: TestStatus,
    pub alerts: Vec<UnitAlert>,
}

/// One test class (a local class `FOR TESTING`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnitClassResult {
    /// Upper case (`LTCL_MAIN`).
    pub name: String,
    /// Line of the `CLASS … DEFINITION` statement in its source part.
    pub line: u32,
    /// `RISK LEVEL` (`harmless`, `dangerous`, `critical`), `harmless` when not given.
    pub risk_level: String,
    /// `DURATION` (`short`, `medium`, `long`), `short` when not given.
    pub duration: String,
    /// Alerts of the class itself (`class_setup`/`class_teardown` failed).
    pub alerts: Vec<UnitAlert>,
    /// Test methods in source order (only the requested one when a method was given).
    pub methods: Vec<UnitMethodResult>,
}

/// The result of running the tests of one object.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnitRunResult {
    /// Upper case object name.
    pub object: String,
    pub kind: ObjectKind,
    /// Test classes in source order; empty when the object has none.
    pub classes: Vec<UnitClassResult>,
}

impl UnitRunResult {
    /// True when no test method failed or erred and no class alert was raised.
    pub fn passed(&self) -> bool {
        self.classes.iter().all(|c| {
            c.alerts.is_empty() && c.methods.iter().all(|m| m.status == TestStatus::Passed)
        })
    }
}
