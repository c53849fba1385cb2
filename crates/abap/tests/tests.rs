//! crates/abap's tests, one binary (one link on two cores instead of one per file). Every
//! module runs ABAP through the public API (`Repository`, `DebugHook`); `harness` holds what
//! they share: the class that wraps a test's statements, `run`, and the one `DebugHook`.
#![allow(clippy::result_large_err)] // RunError is the crate's contract type, one per run

mod harness;

mod assertions; // ASSERT and ASSERTION_FAILED
mod assignment_operators; // += -= *= /= &&=
mod bit_operations; // BIT-AND/OR/XOR/NOT, O Z M
mod call_depth; // deep and endless recursion: the ABAP stack limit, a growing Rust stack
mod char_case; // upper and lower case, one character for one
mod classic_fixes; // sorted targets of table assignment, classic method exceptions, flat text structures
mod cond_result_types; // COND #, SWITCH #: the type of the first THEN operand
mod conditions; // debugger conditions, judged as an IF judges them
mod constructor_exprs; // VALUE with BASE/FOR/LET, REDUCE, FILTER, CORRESPONDING
mod constructors; // COND, SWITCH, CONV
mod contract; // the debugger contract: statement, exception, message, set_value, jump, units
mod declarations; // STATICS, structured CONSTANTS, dictionary data elements
mod dynamic; // names given at run time: CREATE, CALL METHOD, ASSIGN, SORT, READ, WHERE
mod exception_flow; // where exceptions go, CLEANUP, RESUMABLE
mod function_modules; // function groups, CALL FUNCTION, classic exceptions, module frames
mod group_loops; // LOOP AT … GROUP BY, LOOP AT GROUP
mod header_lines; // tables with header lines and OCCURS in legacy reports
mod importing_tables; // tables passed as IMPORTING parameters
mod keyword_methods; // methods named like statement keywords: check( ), sort( )
mod language; // the supported subset's semantics
mod limits; // the run guards: statements, run time, rows, string length
mod list_output; // WRITE to a report's list
mod logic; // EQUIV, component types
mod me_paths; // debugger ids through ME->
mod numeric_args; // nmax/nmin, ipow, round
mod obsolete_statements; // MOVE … TO, ADD … TO and friends
mod oo_interfaces; // interface components, aliases, constants
mod open_sql; // Open SQL on the sample tables: SELECT, writes, the unit of work
mod open_sql_dictionary; // data elements, TABLES work areas, aggregates over no rows
mod open_sql_isolation; // each run its own logical unit of work
mod parameter_passing; // by reference and by value
mod posix_regex; // POSIX leftmost-longest with alternatives, submatches, \l \u \C
mod predicates; // BETWEEN
mod ranges_predicates; // range tables and IN, IS SUPPLIED, IS INSTANCE OF
mod refs; // field symbols and data references
mod regex_back_references; // \1 in patterns: the bounded backtracking matcher
mod regex_functions; // string functions with regular expressions
mod replace_rules; // REPLACE/FIND details
mod result_components; // meth( )-comp, VALUE ty( … )-comp: components of results
mod robustness; // arbitrary source text never panics
mod row_references; // references to table rows follow the row
mod rtti; // run time type information: describe_by_*, descriptors, TYPE HANDLE
mod run_memory; // the memory one run may hold: big strings, big tables, many matches
mod sample; // the simulator's sample class; load_dir
mod selection_parameters; // PARAMETERS and SELECT-OPTIONS
mod signs; // + and - before any operand, signed numeric literals
mod strings; // string statements
mod table_expressions; // table expressions as write targets, chained, KEY … INDEX
mod table_ops; // APPEND/INSERT LINES OF, COLLECT, MODIFY, DELETE …
mod table_search; // FIND/REPLACE IN TABLE, RESULTS
mod tables; // structures and internal tables
mod template_options; // string template options
mod text_functions; // built-in string functions
mod text_utilities; // escape( ), cl_abap_string_utilities
mod types; // d, t, n, x, xstring, int8, decfloat, f
mod write_to; // WRITE … TO
