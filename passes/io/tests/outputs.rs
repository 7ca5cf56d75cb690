//! The output rules of onnc-io, each on a real file system object: regular
//! files, private device nodes (made with mknod, never the system's), FIFOs,
//! directory outputs, stale temporaries of killed writers, concurrent writers.

use std::io::Read;
use std::os::unix::fs::{FileTypeExt, PermissionsExt};
use std::path::{Path, PathBuf};

use onnc_io::{check_outputs, write_dir, write_file, write_file_with, DirFile, Error, OutputKind};
use rustix::fs::{makedev, mknodat, FileType, Mode, CWD};

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("onnc-io-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn leftovers(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains(".onnc-tmp-"))
        .collect()
}

fn is_root() -> bool {
    rustix::process::geteuid().is_root()
}

/// A private character device `major:minor` (1:3 = null, 1:7 = full).
fn char_device(path: &Path, major: u32, minor: u32) {
    mknodat(
        CWD,
        path,
        FileType::CharacterDevice,
        Mode::from_raw_mode(0o666),
        makedev(major, minor),
    )
    .unwrap_or_else(|e| panic!("mknod {}: {e}", path.display()));
}

#[test]
fn regular_file_replaced_whole_keeping_permissions() {
    let d = scratch("regular");
    let p = d.join("out.bin");
    std::fs::write(&p, b"old").unwrap();
    std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o640)).unwrap();
    write_file(&p, b"new content").unwrap();
    assert_eq!(std::fs::read(&p).unwrap(), b"new content");
    assert_eq!(
        std::fs::metadata(&p).unwrap().permissions().mode() & 0o777,
        0o640
    );
    assert!(leftovers(&d).is_empty());
    // A failing producer leaves the old file and no temporary.
    let e = write_file_with(&p, |w| {
        w.write_all(b"half")?;
        Err(std::io::Error::other("producer failed"))
    })
    .unwrap_err();
    assert!(e.to_string().contains("producer failed"), "{e}");
    assert_eq!(std::fs::read(&p).unwrap(), b"new content");
    assert!(leftovers(&d).is_empty());
}

#[test]
fn missing_folder_and_directory_targets_are_errors() {
    let d = scratch("missing");
    assert!(write_file(&d.join("no/such/dir/x"), b"x").is_err());
    let e = write_file(&d, b"x").unwrap_err();
    assert!(e.to_string().contains("is a directory"), "{e}");
    assert!(d.is_dir());
}

#[test]
fn device_nodes_are_written_in_place_and_survive() {
    if !is_root() {
        // mknod needs root; the FIFO test covers in-place writes for others.
        eprintln!("not root: device nodes covered by the FIFO test only");
        return;
    }
    let d = scratch("devices");
    let null = d.join("null");
    char_device(&null, 1, 3);
    write_file(&null, &vec![7u8; 1 << 20]).unwrap();
    let m = std::fs::metadata(&null).unwrap();
    assert!(m.file_type().is_char_device(), "the null node was replaced");
    // A full device: ENOSPC is an error, and the node stays.
    let full = d.join("full");
    char_device(&full, 1, 7);
    let e = write_file(&full, b"anything").unwrap_err();
    match &e {
        Error::Io { source, .. } => assert_eq!(source.raw_os_error(), Some(28), "{e}"),
        other => panic!("expected ENOSPC, got {other}"),
    }
    assert!(std::fs::metadata(&full)
        .unwrap()
        .file_type()
        .is_char_device());
    assert!(leftovers(&d).is_empty());
    // A directory output refuses a device.
    let e = write_dir(
        &null,
        "m",
        &[DirFile {
            name: "a".into(),
            bytes: vec![1],
        }],
    )
    .unwrap_err();
    assert!(e.to_string().contains("not a directory"), "{e}");
    assert!(std::fs::metadata(&null)
        .unwrap()
        .file_type()
        .is_char_device());
}

#[test]
fn fifo_is_written_in_place() {
    let d = scratch("fifo");
    let fifo = d.join("pipe");
    rustix::fs::mknodat(CWD, &fifo, FileType::Fifo, Mode::from_raw_mode(0o600), 0).unwrap();
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || {
            let mut v = Vec::new();
            std::fs::File::open(&fifo)
                .unwrap()
                .read_to_end(&mut v)
                .unwrap();
            v
        })
    };
    let payload: Vec<u8> = (0..200_000u32).map(|i| i as u8).collect();
    write_file(&fifo, &payload).unwrap();
    assert_eq!(reader.join().unwrap(), payload);
    assert!(std::fs::metadata(&fifo).unwrap().file_type().is_fifo());
}

#[test]
fn output_equal_to_an_input_is_refused_before_writing() {
    let d = scratch("self");
    let model = d.join("m.onnx");
    std::fs::write(&model, b"model bytes").unwrap();
    let alias = d.join("alias.onnx");
    std::fs::hard_link(&model, &alias).unwrap();
    for out in [&model, &alias] {
        let e = check_outputs(&[(out, OutputKind::File)], &[&model]).unwrap_err();
        assert!(e.to_string().contains("also an input"), "{e}");
    }
    assert_eq!(std::fs::read(&model).unwrap(), b"model bytes");
    let e = check_outputs(&[(&d.join("nope/x"), OutputKind::File)], &[&model]).unwrap_err();
    assert!(e.to_string().contains("does not exist"), "{e}");
    let e = check_outputs(&[(&d, OutputKind::File)], &[]).unwrap_err();
    assert!(e.to_string().contains("directory"), "{e}");
    let e = check_outputs(&[(&model, OutputKind::Dir)], &[]).unwrap_err();
    assert!(e.to_string().contains("not a directory"), "{e}");
    let same = d.join("r.json");
    let e =
        check_outputs(&[(&same, OutputKind::File), (&same, OutputKind::File)], &[]).unwrap_err();
    assert!(e.to_string().contains("two outputs"), "{e}");
    check_outputs(
        &[
            (&d.join("fresh.nvdla"), OutputKind::File),
            (Path::new("-"), OutputKind::File),
        ],
        &[&model],
    )
    .unwrap();
}

#[test]
fn directory_outputs_appear_whole_and_replace_only_earlier_outputs() {
    let d = scratch("dirs");
    let out = d.join("pkg");
    let files = |tag: &str| {
        vec![
            DirFile {
                name: "marker.json".into(),
                bytes: tag.as_bytes().to_vec(),
            },
            DirFile {
                name: "sub/data.bin".into(),
                bytes: vec![1, 2, 3],
            },
        ]
    };
    write_dir(&out, "marker.json", &files("one")).unwrap();
    assert_eq!(std::fs::read(out.join("marker.json")).unwrap(), b"one");
    assert_eq!(std::fs::read(out.join("sub/data.bin")).unwrap(), [1, 2, 3]);
    // Replacing an earlier output: old files do not survive.
    std::fs::write(out.join("stale.txt"), b"x").unwrap();
    write_dir(&out, "marker.json", &files("two")).unwrap();
    assert_eq!(std::fs::read(out.join("marker.json")).unwrap(), b"two");
    assert!(!out.join("stale.txt").exists());
    assert!(leftovers(&d).is_empty());
    // A non-empty folder that is not an earlier output is refused untouched.
    let home = d.join("home");
    std::fs::create_dir(&home).unwrap();
    std::fs::write(home.join("thesis.tex"), b"precious").unwrap();
    let e = write_dir(&home, "marker.json", &files("x")).unwrap_err();
    assert!(e.to_string().contains("not an earlier output"), "{e}");
    assert_eq!(std::fs::read(home.join("thesis.tex")).unwrap(), b"precious");
    // A failure while filling leaves the old output and no temporary.
    let bad = vec![
        DirFile {
            name: "a".into(),
            bytes: vec![1],
        },
        DirFile {
            name: "a/b".into(),
            bytes: vec![2],
        },
    ];
    assert!(write_dir(&out, "marker.json", &bad).is_err());
    assert_eq!(std::fs::read(out.join("marker.json")).unwrap(), b"two");
    assert!(leftovers(&d).is_empty());
    // Names that escape the directory are refused.
    let esc = vec![DirFile {
        name: "../evil".into(),
        bytes: vec![],
    }];
    assert!(write_dir(&out, "marker.json", &esc).is_err());
    assert!(!d.join("evil").exists());
}

#[test]
fn stale_temporaries_of_dead_writers_are_swept() {
    let d = scratch("stale");
    let out = d.join("model.nvdla");
    // pid 4194304 is above Linux's pid_max limit: never alive.
    let dead = d.join(".model.nvdla.onnc-tmp-4194304-0");
    std::fs::write(&dead, b"half").unwrap();
    let mine = d.join(format!(".model.nvdla.onnc-tmp-{}-999", std::process::id()));
    std::fs::write(&mine, b"in use").unwrap();
    let other = d.join(".other.onnc-tmp-4194304-0");
    std::fs::write(&other, b"not ours").unwrap();
    write_file(&out, b"done").unwrap();
    assert!(!dead.exists(), "the dead writer's temporary was not swept");
    assert!(mine.exists(), "a live writer's temporary was removed");
    assert!(other.exists(), "another output's temporary was removed");
}

#[test]
fn concurrent_writers_leave_one_complete_output() {
    let d = scratch("race");
    let out = d.join("o.bin");
    let a = vec![b'a'; 3 << 20];
    let b = vec![b'b'; 2 << 20];
    std::thread::scope(|s| {
        for payload in [&a, &b] {
            let out = &out;
            s.spawn(move || {
                for _ in 0..5 {
                    write_file(out, payload).unwrap();
                }
            });
        }
    });
    let got = std::fs::read(&out).unwrap();
    assert!(got == a || got == b, "mixed output of {} bytes", got.len());
    assert!(leftovers(&d).is_empty());
}

/// Child mode of [`killed_writer_leaves_old_output_and_is_cleaned_up`]:
/// starts writing, then waits to be killed.
#[test]
fn child_slow_writer() {
    let Ok(path) = std::env::var("ONNC_IO_CHILD_OUT") else {
        return;
    };
    let _ = write_file_with(Path::new(&path), |w| {
        w.write_all(&vec![b'n'; 1 << 16])?;
        w.flush()?;
        std::fs::write(format!("{path}.started"), b"")?;
        std::thread::sleep(std::time::Duration::from_secs(60));
        Ok(())
    });
}

#[test]
fn killed_writer_leaves_old_output_and_is_cleaned_up() {
    let d = scratch("kill");
    let out = d.join("o.bin");
    std::fs::write(&out, b"previous").unwrap();
    let mut child = std::process::Command::new(std::env::current_exe().unwrap())
        .args(["--exact", "child_slow_writer", "--nocapture"])
        .env("ONNC_IO_CHILD_OUT", &out)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let started = d.join("o.bin.started");
    let t0 = std::time::Instant::now();
    while !started.exists() {
        assert!(t0.elapsed().as_secs() < 30, "child writer never started");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    assert_eq!(
        std::fs::read(&out).unwrap(),
        b"previous",
        "the killed write damaged the output"
    );
    assert_eq!(
        leftovers(&d).len(),
        1,
        "the killed writer's temporary should be there"
    );
    write_file(&out, b"next").unwrap();
    assert_eq!(std::fs::read(&out).unwrap(), b"next");
    assert!(
        leftovers(&d).is_empty(),
        "the stale temporary was not swept: {:?}",
        leftovers(&d)
    );
}
