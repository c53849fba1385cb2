//! Syntax tree of offset/length access `dobj+off(len)`.

use crate::ast::Expr;
use crate::ast::Path;
/// `base+off(len)`; a missing offset is 0, a missing length the rest of the data object.
#[derive(Debug, Clone)]
pub struct SubAccess {
    pub base: Path,
    pub off: Option<Expr>,
    pub len: Option<Expr>,
}
