//! Variadic elementwise operators: `Sum`, `Max`, `Min`, `Mean`, folding the
//! inputs left to right with multidirectional broadcasting.
//!
//! In: one or more tensors of one numeric type. Out: one tensor of the
//! broadcast shape. Example: `Max([1, 5], [3, 2], [0]) = [3, 5]`.

use super::binary::{arith_tensors, Arith};
use crate::call::Call;
use crate::Result;
use onnc_tensor::Tensor;

/// Folds all inputs with `op`.
pub(crate) fn fold(c: &Call, op: Arith) -> Result<Vec<Tensor>> {
    c.arity(1, usize::MAX)?;
    let mut acc = if c.inputs.len() >= 2 {
        arith_tensors(c, op, c.input(0)?, c.input(1)?, 1)?
    } else {
        c.input(0)?.clone()
    };
    for i in 2..c.inputs.len() {
        acc = arith_tensors(c, op, &acc, c.input(i)?, i)?;
    }
    if acc.dtype() == onnc_tensor::DType::Bool {
        return Err(c.type_err(0, "a numeric type", acc.dtype()));
    }
    Ok(vec![acc])
}

/// `Mean`: the sum divided by the input count.
pub(crate) fn mean(c: &Call) -> Result<Vec<Tensor>> {
    let sum = fold(c, Arith::Add)?.remove(0);
    let n = Tensor::full(sum.dtype(), vec![], c.inputs.len() as f64);
    Ok(vec![arith_tensors(c, Arith::Div, &sum, &n, 0)?])
}
