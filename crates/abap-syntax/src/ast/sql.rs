//! Open SQL statements (`SELECT`, `INSERT`, `UPDATE`, `MODIFY`, `DELETE`, `COMMIT WORK`,
//! `ROLLBACK WORK`): the statement as the `opensql` crate parsed it from the statement's text,
//! run against the simulator's database by `interp/sql.rs`.

use crate::ast::stmt::Stmt;

/// One Open SQL statement.
#[derive(Debug, Clone)]
pub struct SqlStmt {
    pub stmt: opensql::ast::Statement,
    /// `INSERT`/`MODIFY`/`DELETE` of a shape an internal table statement has too
    /// (`MODIFY x FROM wa`, `DELETE x FROM wa`): the name `x` and that statement. ABAP
    /// decides by `x`: a data object in scope makes it the internal table statement.
    pub table_form: Option<(String, Box<Stmt>)>,
    /// `SELECT … ENDSELECT`: the loop body.
    pub body: Vec<Stmt>,
}

impl SqlStmt {
    /// The keyword as the statement breakpoint catalogue names it.
    pub fn keyword(&self) -> &'static str {
        use opensql::ast::Statement;
        match &self.stmt {
            Statement::Select(_) => "SELECT",
            Statement::Insert(_) => "INSERT",
            Statement::Update(_) => "UPDATE",
            Statement::Modify(_) => "MODIFY",
            Statement::Delete(_) => "DELETE",
            Statement::CommitWork => "COMMIT WORK",
            Statement::RollbackWork => "ROLLBACK WORK",
        }
    }
}
