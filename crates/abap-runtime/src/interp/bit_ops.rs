//! Bit expressions (`BIT-AND`, `BIT-OR`, `BIT-XOR`, `BIT-NOT` on `x` and `xstring`) and the
//! relational operators for bit patterns (`O`, `Z`, `M`).
//!
//! A bit expression is calculated in the length of its longest operand: shorter operands are
//! padded with hexadecimal 0 on the right first (so `BIT-NOT` of a short operand turns the
//! padding into 1 bits). The result is a byte string of that length, which an assignment
//! converts to its target (an inline declaration gets `xstring`). Operands that are not
//! byte-like are a syntax error on a real system; here they end the run as not supported.

use crate::interp::{Exec, Interp};
use abap_data::value::Value;
use abap_syntax::ast::{BitCmp, BitOp, Ctor, Expr};

/// A bit expression with its operands evaluated.
enum Node {
    Leaf(Vec<u8>),
    Not(Box<Node>),
    Bin(BitOp, Box<Node>, Box<Node>),
}

impl Node {
    /// The node's bytes in the calculation length `len`.
    fn bytes(&self, len: usize) -> Vec<u8> {
        match self {
            Node::Leaf(b) => {
                let mut b = b.clone();
                b.resize(len, 0);
                b
            }
            Node::Not(n) => n.bytes(len).into_iter().map(|b| !b).collect(),
            Node::Bin(op, l, r) => {
                let (l, r) = (l.bytes(len), r.bytes(len));
                l.iter()
                    .zip(&r)
                    .map(|(a, b)| match op {
                        BitOp::And => a & b,
                        BitOp::Xor => a ^ b,
                        BitOp::Or => a | b,
                    })
                    .collect()
            }
        }
    }
}

impl Interp<'_, '_> {
    /// Evaluates `BIT-NOT a` or `a BIT-… b` (with whatever bit expressions they contain).
    pub(crate) fn eval_bits(&mut self, c: &Ctor) -> Exec<Value> {
        let mut len = 0;
        let node = match c {
            Ctor::Bits(op, l, r) => Node::Bin(
                *op,
                Box::new(self.bit_node(l, &mut len)?),
                Box::new(self.bit_node(r, &mut len)?),
            ),
            Ctor::BitNot(e) => Node::Not(Box::new(self.bit_node(e, &mut len)?)),
            _ => return Err(self.not_supported("bit expression")),
        };
        Ok(Value::XStr(node.bytes(len)))
    }

    /// The operands of a bit expression, left to right; `len` becomes the longest one's length.
    fn bit_node(&mut self, e: &Expr, len: &mut usize) -> Exec<Node> {
        if let Expr::Ctor(c) = e {
            match &**c {
                Ctor::Bits(op, l, r) => {
                    let l = self.bit_node(l, len)?;
                    let r = self.bit_node(r, len)?;
                    return Ok(Node::Bin(*op, Box::new(l), Box::new(r)));
                }
                Ctor::BitNot(inner) => {
                    return Ok(Node::Not(Box::new(self.bit_node(inner, len)?)));
                }
                _ => {}
            }
        }
        let bytes = self.byte_operand(e)?;
        *len = (*len).max(bytes.len());
        Ok(Node::Leaf(bytes))
    }

    fn byte_operand(&mut self, e: &Expr) -> Exec<Vec<u8>> {
        match self.eval(e)? {
            Value::X(b) | Value::XStr(b) => Ok(b),
            other => Err(self.not_supported(&format!(
                "bit operation on an operand of type {}",
                crate::interp::shapes::display_type(&other.type_of())
            ))),
        }
    }

    /// `a O|Z|M mask`: `a` shorter than the mask counts as padded with hexadecimal 0.
    pub(crate) fn bit_compare(&mut self, op: BitCmp, l: &Expr, r: &Expr) -> Exec<bool> {
        let a = self.byte_operand(l)?;
        let mask = self.byte_operand(r)?;
        Ok(bit_pattern_holds(op, &a, &mask))
    }

    /// [`Interp::bit_compare`] on values (a `WHERE` condition's row component).
    pub(crate) fn bit_compare_values(&self, op: BitCmp, l: &Value, r: &Value) -> Exec<bool> {
        match (l, r) {
            (Value::X(a) | Value::XStr(a), Value::X(m) | Value::XStr(m)) => {
                Ok(bit_pattern_holds(op, a, m))
            }
            _ => Err(self.not_supported("bit pattern comparison of a non-byte-like operand")),
        }
    }
}

fn bit_pattern_holds(op: BitCmp, a: &[u8], mask: &[u8]) -> bool {
    let (mut ones, mut zeros) = (false, false);
    for (i, m) in mask.iter().enumerate() {
        let b = a.get(i).copied().unwrap_or(0);
        ones |= b & m != 0;
        zeros |= !b & m != 0;
    }
    match op {
        BitCmp::Ones => !zeros,
        BitCmp::Zeros => !ones,
        BitCmp::Mixed => ones && zeros,
    }
}
