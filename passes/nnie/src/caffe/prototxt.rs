//! `deploy.prototxt`: protobuf text format of a `NetParameter`, Caffe style.
//!
//! In: a `NetParameter`. Out: text that Caffe's (and `nnie_mapper`'s) C++
//! `TextFormat` parser reads; and the reverse with `prost-reflect`'s parser.
//!
//! The printer is ours (over `prost-reflect` dynamic messages) rather than
//! `prost-reflect`'s own, because Caffe files are conventionally written as
//! one `field: value` line per element and nested `name { … }` blocks, and old
//! parsers may not accept list syntax (`dim: [1, 3]`). Rules, all
//! deterministic:
//! * fields in field-number order (what C++ `TextFormat::Print` does; it is
//!   why `layer = 100` comes after `name`, `input`, …), 2-space indentation;
//! * only fields that are *set* (proto2 presence) — defaults are not invented,
//!   and fields newer parsers know but old ones do not never appear unless set;
//! * repeated fields one line (or block) per element;
//! * strings in double quotes with C escapes (`\"`, `\\`, `\n`, `\r`, `\t`,
//!   other control and non-ASCII bytes as 3-digit octal);
//! * floats in the shortest form that round-trips, with an exponent outside
//!   `[1e-5, 1e16)` so that no huge integer token appears; `inf`, `-inf`, `nan`;
//! * enums by name.
//!
//! ```
//! use onnc_nnie::caffe::{proto, to_prototxt};
//! let layer = proto::LayerParameter {
//!     name: Some("pool1".into()),
//!     r#type: Some("Pooling".into()),
//!     pooling_param: Some(proto::PoolingParameter {
//!         pool: Some(proto::pooling_parameter::PoolMethod::Max as i32),
//!         kernel_size: Some(2),
//!         stride: Some(2),
//!         ..Default::default()
//!     }),
//!     ..Default::default()
//! };
//! let net = proto::NetParameter { layer: vec![layer], ..Default::default() };
//! assert!(to_prototxt(&net).unwrap().contains("  pooling_param {\n    pool: MAX\n    kernel_size: 2\n    stride: 2\n  }\n"));
//! ```

use std::fmt::Write as _;
use std::sync::OnceLock;

use prost::Message;
use prost_reflect::{
    DescriptorPool, DynamicMessage, FieldDescriptor, Kind, MessageDescriptor, ReflectMessage, Value,
};

use super::proto::NetParameter;
use super::CAFFE_FDS;
use crate::error::{NnieError, Result};

fn net_descriptor() -> Result<MessageDescriptor> {
    static POOL: OnceLock<std::result::Result<DescriptorPool, String>> = OnceLock::new();
    let pool = POOL
        .get_or_init(|| DescriptorPool::decode(CAFFE_FDS).map_err(|e| e.to_string()))
        .as_ref()
        .map_err(|e| NnieError::Caffe(format!("descriptor pool: {e}")))?;
    pool.get_message_by_name("caffe.NetParameter")
        .ok_or_else(|| {
            NnieError::Caffe("caffe.NetParameter missing from descriptor pool".to_string())
        })
}

/// Print a net as Caffe prototxt.
pub fn to_prototxt(net: &NetParameter) -> Result<String> {
    let msg = DynamicMessage::decode(net_descriptor()?, net.encode_to_vec().as_slice())
        .map_err(|e| NnieError::Caffe(format!("reflect: {e}")))?;
    let mut out = String::new();
    print_message(&msg, 0, &mut out);
    Ok(out)
}

/// Parse Caffe prototxt (comments with `#` allowed; unknown fields rejected).
pub fn from_prototxt(text: &str) -> Result<NetParameter> {
    let msg = DynamicMessage::parse_text_format(net_descriptor()?, text)
        .map_err(|e| NnieError::Caffe(format!("prototxt: {e}")))?;
    msg.transcode_to::<NetParameter>()
        .map_err(|e| NnieError::Caffe(format!("prototxt: {e}")))
}

fn print_message(msg: &DynamicMessage, indent: usize, out: &mut String) {
    let mut fields: Vec<FieldDescriptor> = msg.descriptor().fields().collect();
    fields.sort_by_key(FieldDescriptor::number);
    for field in fields {
        if !msg.has_field(&field) {
            continue;
        }
        match &*msg.get_field(&field) {
            Value::List(items) => {
                for item in items {
                    print_field(&field, item, indent, out);
                }
            }
            value => print_field(&field, value, indent, out),
        }
    }
}

fn print_field(field: &FieldDescriptor, value: &Value, indent: usize, out: &mut String) {
    let pad = "  ".repeat(indent);
    let name = field.name();
    match value {
        Value::Message(m) => {
            let _ = writeln!(out, "{pad}{name} {{");
            print_message(m, indent + 1, out);
            let _ = writeln!(out, "{pad}}}");
        }
        scalar => {
            let _ = writeln!(out, "{pad}{name}: {}", scalar_text(field, scalar));
        }
    }
}

fn scalar_text(field: &FieldDescriptor, value: &Value) -> String {
    match value {
        Value::Bool(b) => b.to_string(),
        Value::I32(v) => v.to_string(),
        Value::I64(v) => v.to_string(),
        Value::U32(v) => v.to_string(),
        Value::U64(v) => v.to_string(),
        Value::F32(v) => float_text(f64::from(*v), format!("{v}"), format!("{v:e}")),
        Value::F64(v) => float_text(*v, format!("{v}"), format!("{v:e}")),
        Value::String(s) => quote(s.as_bytes()),
        Value::Bytes(b) => quote(b),
        Value::EnumNumber(n) => match field.kind() {
            Kind::Enum(e) => e
                .get_value(*n)
                .map_or_else(|| n.to_string(), |v| v.name().to_string()),
            _ => n.to_string(),
        },
        // Messages, lists and maps are handled by the callers (caffe.proto has no maps).
        Value::Message(_) | Value::List(_) | Value::Map(_) => String::new(),
    }
}

fn float_text(v: f64, plain: String, exp: String) -> String {
    if v.is_nan() {
        "nan".to_string()
    } else if v.is_infinite() {
        if v > 0.0 { "inf" } else { "-inf" }.to_string()
    } else if v != 0.0 && !(1e-5..1e16).contains(&v.abs()) {
        exp
    } else {
        plain
    }
}

fn quote(bytes: &[u8]) -> String {
    let mut s = String::with_capacity(bytes.len() + 2);
    s.push('"');
    for &b in bytes {
        match b {
            b'"' => s.push_str("\\\""),
            b'\\' => s.push_str("\\\\"),
            b'\n' => s.push_str("\\n"),
            b'\r' => s.push_str("\\r"),
            b'\t' => s.push_str("\\t"),
            0x20..=0x7e => s.push(char::from(b)),
            _ => {
                let _ = write!(s, "\\{b:03o}");
            }
        }
    }
    s.push('"');
    s
}

#[cfg(test)]
mod tests {
    use super::super::proto::{self, BlobShape, LayerParameter};
    use super::*;

    fn conv_net() -> NetParameter {
        NetParameter {
            name: Some("net \"q\"\n".into()),
            layer: vec![
                LayerParameter {
                    name: Some("data".into()),
                    r#type: Some("Input".into()),
                    top: vec!["data".into()],
                    input_param: Some(proto::InputParameter {
                        shape: vec![BlobShape {
                            dim: vec![1, 3, 224, 224],
                        }],
                    }),
                    ..Default::default()
                },
                LayerParameter {
                    name: Some("conv1".into()),
                    r#type: Some("Convolution".into()),
                    bottom: vec!["data".into()],
                    top: vec!["conv1".into()],
                    convolution_param: Some(proto::ConvolutionParameter {
                        num_output: Some(16),
                        bias_term: Some(false),
                        pad: vec![1],
                        kernel_size: vec![3],
                        stride: vec![2],
                        ..Default::default()
                    }),
                    ..Default::default()
                },
                LayerParameter {
                    name: Some("relu1".into()),
                    r#type: Some("ReLU".into()),
                    bottom: vec!["conv1".into()],
                    top: vec!["conv1".into()],
                    relu_param: Some(proto::ReLuParameter {
                        negative_slope: Some(0.1),
                        ..Default::default()
                    }),
                    ..Default::default()
                },
                LayerParameter {
                    name: Some("up".into()),
                    r#type: Some("Upsample".into()),
                    bottom: vec!["conv1".into()],
                    top: vec!["up".into()],
                    upsample_param: Some(proto::UpsampleParameter {
                        scale: Some(2),
                        ..Default::default()
                    }),
                    ..Default::default()
                },
            ],
            ..Default::default()
        }
    }

    #[test]
    fn golden_text() {
        let expected = r#"name: "net \"q\"\n"
layer {
  name: "data"
  type: "Input"
  top: "data"
  input_param {
    shape {
      dim: 1
      dim: 3
      dim: 224
      dim: 224
    }
  }
}
layer {
  name: "conv1"
  type: "Convolution"
  bottom: "data"
  top: "conv1"
  convolution_param {
    num_output: 16
    bias_term: false
    pad: 1
    kernel_size: 3
    stride: 2
  }
}
layer {
  name: "relu1"
  type: "ReLU"
  bottom: "conv1"
  top: "conv1"
  relu_param {
    negative_slope: 0.1
  }
}
layer {
  name: "up"
  type: "Upsample"
  bottom: "conv1"
  top: "up"
  upsample_param {
    scale: 2
  }
}
"#;
        let net = conv_net();
        let text = to_prototxt(&net).unwrap();
        assert_eq!(text, expected);
        assert_eq!(from_prototxt(&text).unwrap(), net);
    }

    #[test]
    fn parses_hand_written_caffe_style() {
        let text = "# comment\nname: 'x'\ninput: \"data\"\ninput_shape { dim: 1 dim: 3 dim: 8 dim: 8 }\n\
                    layer { name: 'p' type: 'Pooling' bottom: 'data' top: 'p'\n pooling_param { pool: AVE kernel_size: 2 } }\n";
        let net = from_prototxt(text).unwrap();
        assert_eq!(net.input, ["data"]);
        assert_eq!(net.layer[0].pooling_param.as_ref().unwrap().pool, Some(1));
        // printing puts `input` (3) before `input_shape` (8) before `layer` (100)
        let printed = to_prototxt(&net).unwrap();
        assert!(printed.starts_with("name: \"x\"\ninput: \"data\"\ninput_shape {\n  dim: 1\n"));
        assert!(printed.contains("    pool: AVE\n"));
    }

    #[test]
    fn rejects_unknown_fields_and_garbage() {
        assert!(from_prototxt("layer { bogus: 1 }").is_err());
        assert!(from_prototxt("layer {").is_err());
    }

    #[test]
    fn float_and_string_formatting() {
        assert_eq!(float_text(1.0, "1".into(), "1e0".into()), "1");
        assert_eq!(float_text(1e-10, "p".into(), "1e-10".into()), "1e-10");
        assert_eq!(float_text(1e20, "p".into(), "1e20".into()), "1e20");
        assert_eq!(
            float_text(f64::NEG_INFINITY, String::new(), String::new()),
            "-inf"
        );
        assert_eq!(float_text(f64::NAN, String::new(), String::new()), "nan");
        assert_eq!(quote("a\u{e9}\u{1}".as_bytes()), "\"a\\303\\251\\001\"");
        // exponent forms parse back
        let mut net = NetParameter::default();
        net.layer.push(LayerParameter {
            blobs: vec![proto::BlobProto {
                data: vec![1e-10, 3e20, -0.5],
                ..Default::default()
            }],
            ..Default::default()
        });
        let back = from_prototxt(&to_prototxt(&net).unwrap()).unwrap();
        assert_eq!(back, net);
    }
}
