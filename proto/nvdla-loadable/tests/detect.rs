//! ABI detection reads the structures, not only the version number a writer
//! put in the DLA network blob (ONNC 1.3.0 writes its own 1.2.0 into
//! loadables with the legacy 28-byte data cube).

mod common;

use common::{golden, GOLDEN};
use onnc_nvdla_loadable::layout::resolve_blob;
use onnc_nvdla_loadable::{convert_abi, detect_abi, Abi, Loadable, Version};

/// Sets the version of every DLA network-desc blob of `l` to `v`.
fn with_dla_version(mut l: Loadable, v: Version) -> Loadable {
    let blobs: Vec<usize> = l
        .task_list
        .iter()
        .filter(|t| t.interface == onnc_nvdla_loadable::enums::Interface::DLA1)
        .filter_map(|t| resolve_blob(&l, t, 0).ok())
        .collect();
    for b in blobs {
        l.blobs[b].version = Some(v);
    }
    l
}

#[test]
fn legacy_goldens_stay_legacy_whatever_the_version_field_says() {
    for name in GOLDEN.iter().filter(|n| !n.starts_with("BDMA")) {
        let l = with_dla_version(golden(name), Version::new(1, 2, 0));
        let again = Loadable::read(&l.write()).unwrap();
        let g = detect_abi(&again);
        assert_eq!(g.abi, Abi::Legacy, "{name}: {}", g.reason);
        assert!(
            g.reason.contains("surface cubes") || g.reason.contains("EMU op_list"),
            "{name}: {}",
            g.reason
        );
    }
}

#[test]
fn current_layout_is_current_even_with_an_old_version_number() {
    for name in [
        "NN_L0_0_fbuf",
        "CONV_D_L0_0_fbuf",
        "PDP_L0_0_fbuf",
        "SDP_X1_L0_0_fbuf",
    ] {
        let current = convert_abi(&golden(name), Abi::Legacy, Abi::Current).unwrap();
        let l = with_dla_version(current, Version::new(0, 10, 0));
        let g = detect_abi(&Loadable::read(&l.write()).unwrap());
        assert_eq!(g.abi, Abi::Current, "{name}: {}", g.reason);
    }
}
