//! Walking helpers for passes: the ops of a block in order, recursively.

use melior::ir::{block::BlockLike, operation::OperationLike, BlockRef, OperationRef, RegionLike};

/// Calls `f` on every block nested in `op` (any depth), outermost first.
pub fn for_each_block<'c, 'a>(op: &OperationRef<'c, 'a>, f: &mut dyn FnMut(BlockRef<'c, 'a>)) {
    for region in op.regions() {
        let mut block = region.first_block();
        while let Some(b) = block {
            f(b);
            let mut inner = b.first_operation();
            while let Some(o) = inner {
                for_each_block(&o, f);
                inner = o.next_in_block();
            }
            block = b.next_in_region();
        }
    }
}

/// The ops of `block` in program order.
pub fn ops_of<'c, 'a>(block: BlockRef<'c, 'a>) -> Vec<OperationRef<'c, 'a>> {
    let mut out = Vec::new();
    let mut op = block.first_operation();
    while let Some(o) = op {
        out.push(o);
        op = o.next_in_block();
    }
    out
}

/// The dialect namespace of an op (`onnx` for `onnx.conv`).
pub fn dialect_of(op: &OperationRef) -> String {
    let name = op.name();
    let name = name.as_string_ref().as_str().unwrap_or("");
    name.split('.').next().unwrap_or("").to_string()
}
