//! Field slots of `proto/nvdla/loadable.fbs`, the one place that knows the
//! schema's field order.
//!
//! In: nothing. Out: one module per table with a `usize` constant per field
//! (its index, i.e. vtable slot `4 + 2·index`) and `FIELDS`, the names in
//! order. The reader and the writer use these constants; a test checks them
//! against the `.fbs` file.

macro_rules! field_indices {
    ($i:expr;) => {};
    ($i:expr; $f:ident $(, $rest:ident)*) => {
        #[doc = concat!("Index of field `", stringify!($f), "`.")]
        pub const $f: usize = $i;
        field_indices!($i + 1; $($rest),*);
    };
}

macro_rules! table {
    ($m:ident = $t:literal { $($f:ident),* $(,)? }) => {
        #[doc = concat!("Fields of table `", $t, "`.")]
        #[allow(non_upper_case_globals)]
        pub mod $m {
            /// The table's name in the schema.
            pub const TABLE: &str = $t;
            /// Field names in declaration (slot) order.
            pub const FIELDS: &[&str] = &[$(stringify!($f)),*];
            field_indices!(0usize; $($f),*);
        }
    };
}

table!(loadable = "Loadable" {
    version, task_list, memory_list, address_list, event_list, blobs,
    tensor_desc_list, reloc_list, submit_list,
});
table!(task = "TaskListEntry" { id, interface, instance, address_list, pre_actions, post_actions });
table!(submit = "SubmitListEntry" { id, task_id });
table!(memory = "MemoryListEntry" {
    id, domain, flags, size, alignment, contents, offsets, bind_id, tensor_desc_id,
});
table!(address = "AddressListEntry" { id, mem_id, offset, size });
table!(event = "EventListEntry" { id, r#type, target, val, op });
table!(blob = "Blob" { name, size, interface, sub_interface, version, data });
table!(tensor_desc = "TensorDescListEntry" {
    name, id, mem_id, size, offset, data_format, data_type, data_category,
    pixel_format, pixel_mapping, n, c, h, w,
    stride_0, stride_1, stride_2, stride_3, stride_4, stride_5, stride_6, stride_7,
});
table!(reloc = "RelocListEntry" { address_id, write_id, offset, interface, sub_interface, reloc_type });

/// Every table, for the schema consistency test.
pub const TABLES: &[(&str, &[&str])] = &[
    (loadable::TABLE, loadable::FIELDS),
    (task::TABLE, task::FIELDS),
    (submit::TABLE, submit::FIELDS),
    (memory::TABLE, memory::FIELDS),
    (address::TABLE, address::FIELDS),
    (event::TABLE, event::FIELDS),
    (blob::TABLE, blob::FIELDS),
    (tensor_desc::TABLE, tensor_desc::FIELDS),
    (reloc::TABLE, reloc::FIELDS),
];
