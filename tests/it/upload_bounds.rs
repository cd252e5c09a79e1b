//! Hostile workbooks, built here byte by byte: a far cell reference, a zip bomb, a
//! shared-strings bomb and a part that inflates past its declared size are refused with
//! a 4xx naming the limit, each within a second, while the server (the real binary, so
//! its memory is its own) stays under 200 MB.

use std::io::Write;
use std::time::{Duration, Instant};
use zip::write::SimpleFileOptions;

pub(crate) const NS: &str = "http://schemas.openxmlformats.org/spreadsheetml/2006/main";
const REL: &str = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
const PKG: &str = "http://schemas.openxmlformats.org/package/2006/relationships";

/// The parts of a one-sheet workbook (`vInfo`) besides the sheet and its strings.
fn skeleton(strings: bool) -> Vec<(&'static str, String)> {
    let strings_rel = if strings {
        format!(
            r#"<Relationship Id="rId2" Type="{REL}/sharedStrings" Target="sharedStrings.xml"/>"#
        )
    } else {
        String::new()
    };
    vec![
        (
            "[Content_Types].xml",
            r#"<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/></Types>"#.to_owned(),
        ),
        (
            "_rels/.rels",
            format!(
                r#"<Relationships xmlns="{PKG}"><Relationship Id="rId1" Type="{REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>"#
            ),
        ),
        (
            "xl/workbook.xml",
            format!(
                r#"<workbook xmlns="{NS}" xmlns:r="{REL}"><sheets><sheet name="vInfo" sheetId="1" r:id="rId1"/></sheets></workbook>"#
            ),
        ),
        (
            "xl/_rels/workbook.xml.rels",
            format!(
                r#"<Relationships xmlns="{PKG}"><Relationship Id="rId1" Type="{REL}/worksheet" Target="worksheets/sheet1.xml"/>{strings_rel}</Relationships>"#
            ),
        ),
    ]
}

/// A sheet of `rows` (`<row>` elements).
fn sheet(rows: &str) -> String {
    format!(r#"<worksheet xmlns="{NS}"><sheetData>{rows}</sheetData></worksheet>"#)
}

/// A valid `vInfo` header and one VM, as inline strings.
pub(crate) const VINFO: &str = r#"<row r="1"><c r="A1" t="inlineStr"><is><t>VM</t></is></c><c r="B1" t="inlineStr"><is><t>In Use MiB</t></is></c></row><row r="2"><c r="A2" t="inlineStr"><is><t>web01</t></is></c><c r="B2"><v>1024</v></c></row>"#;

/// Writes one part's bytes into the archive.
pub(crate) type Writer = Box<dyn Fn(&mut dyn Write)>;

/// A workbook of the skeleton plus `extra` parts, each written by its function.
pub(crate) fn workbook(strings: bool, extra: Vec<(&str, Writer)>) -> Vec<u8> {
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let opts = SimpleFileOptions::default().compression_level(Some(9));
    for (name, text) in skeleton(strings) {
        zip.start_file(name, opts).unwrap();
        zip.write_all(text.as_bytes()).unwrap();
    }
    for (name, write) in extra {
        zip.start_file(name, opts.large_file(true)).unwrap();
        write(&mut zip);
    }
    zip.finish().unwrap().into_inner()
}

/// One sheet part written whole.
fn part(text: String) -> Writer {
    Box::new(move |w| w.write_all(text.as_bytes()).unwrap())
}

/// `total` bytes of `fill` between `head` and `tail`, written in blocks.
fn filled(head: String, fill: u8, total: usize, tail: String) -> Writer {
    Box::new(move |w| {
        w.write_all(head.as_bytes()).unwrap();
        let block = vec![fill; 1 << 20];
        let mut left = total;
        while left > 0 {
            let n = left.min(block.len());
            w.write_all(&block[..n]).unwrap();
            left -= n;
        }
        w.write_all(tail.as_bytes()).unwrap();
    })
}

/// A VM table with one more cell, at XFD1048576: the last cell a sheet can have.
fn far_cell() -> Vec<u8> {
    let rows = format!(r#"{VINFO}<row r="1048576"><c r="XFD1048576"><v>1</v></c></row>"#);
    workbook(
        false,
        vec![("xl/worksheets/sheet1.xml", part(sheet(&rows)))],
    )
}

/// A sheet part of about 1 GiB of whitespace between the table's rows.
fn zip_bomb() -> Vec<u8> {
    let head = format!(r#"<worksheet xmlns="{NS}"><sheetData>{VINFO}"#);
    let fill = filled(head, b' ', 1 << 30, "</sheetData></worksheet>".to_owned());
    workbook(false, vec![("xl/worksheets/sheet1.xml", fill)])
}

/// A shared-strings part with one string of 512 MiB.
fn strings_bomb() -> Vec<u8> {
    let head = format!(r#"<sst xmlns="{NS}" count="1" uniqueCount="1"><si><t>"#);
    let fill = filled(head, b'a', 512 << 20, "</t></si></sst>".to_owned());
    let rows = r#"<row r="1"><c r="A1" t="s"><v>0</v></c></row>"#;
    workbook(
        true,
        vec![
            ("xl/worksheets/sheet1.xml", part(sheet(rows))),
            ("xl/sharedStrings.xml", fill),
        ],
    )
}

/// The largest parts the reader holds whole that are admitted: styles of the smallest
/// cell formats and shared strings of one letter each, just within their limits.
fn largest_admitted() -> Vec<u8> {
    let styles = format!(
        r#"<styleSheet xmlns="{NS}"><cellXfs>{}</cellXfs></styleSheet>"#,
        "<xf/>".repeat(((512 << 10) - 200) / 5)
    );
    let strings = format!(
        r#"<sst xmlns="{NS}">{}</sst>"#,
        "<si><t>a</t></si>".repeat(((16 << 20) - 200) / 17)
    );
    let rows = r#"<row r="1"><c r="A1" t="inlineStr"><is><t>VM</t></is></c><c r="B1" t="inlineStr"><is><t>In Use MiB</t></is></c></row><row r="2"><c r="A2" t="s"><v>0</v></c><c r="B2"><v>1024</v></c></row>"#;
    workbook(
        true,
        vec![
            ("xl/worksheets/sheet1.xml", part(sheet(rows))),
            ("xl/styles.xml", part(styles)),
            ("xl/sharedStrings.xml", part(strings)),
        ],
    )
}

/// A sheet that inflates to 64 MiB while its central directory declares 4 KiB.
fn understated() -> Vec<u8> {
    let head = format!(r#"<worksheet xmlns="{NS}"><sheetData>{VINFO}"#);
    let fill = filled(head, b' ', 64 << 20, "</sheetData></worksheet>".to_owned());
    let mut bytes = workbook(false, vec![("xl/worksheets/sheet1.xml", fill)]);
    // The sheet's central-directory header: uncompressed size at offset 24, name at 46.
    let name = b"xl/worksheets/sheet1.xml";
    let at = bytes
        .windows(4)
        .enumerate()
        .filter(|(_, w)| *w == b"PK\x01\x02")
        .map(|(i, _)| i)
        .find(|&i| bytes[i + 46..].starts_with(name))
        .expect("the sheet's central header");
    let declared = u32::from_le_bytes(bytes[at + 24..at + 28].try_into().unwrap());
    assert!(declared == u32::MAX || declared > 4096, "{declared}");
    if declared == u32::MAX {
        // Zip64: the size is in the extra field's first 8 bytes after its 4-byte header.
        let name_len = u16::from_le_bytes(bytes[at + 28..at + 30].try_into().unwrap()) as usize;
        let extra = at + 46 + name_len + 4;
        bytes[extra..extra + 8].copy_from_slice(&4096u64.to_le_bytes());
    } else {
        bytes[at + 24..at + 28].copy_from_slice(&4096u32.to_le_bytes());
    }
    bytes
}

#[test]
fn hostile_workbooks_are_refused_naming_the_limit() {
    use volplan::inventory::{Options, parse};
    let far = far_cell();
    assert!(far.len() < 2048, "{} bytes", far.len());
    let e = parse(&far, Options::default()).unwrap_err();
    assert!(
        e.message.contains("XFD1048576") && e.message.contains("farthest cell"),
        "{}",
        e.message
    );
    assert_eq!(e.field().as_deref(), Some("vInfo"));
    let e = parse(&understated(), Options::default()).unwrap_err();
    assert!(e.message.contains("declared"), "{}", e.message);
    // Without the far cell, the same workbook reads.
    let rows = sheet(VINFO);
    let fine = workbook(false, vec![("xl/worksheets/sheet1.xml", part(rows))]);
    let inv = parse(&fine, Options::default()).unwrap();
    assert_eq!(inv.vms.len(), 1);
    assert_eq!(inv.vms[0].in_use_mib, 1024.0);
}

/// Hostile bodies just under the 1 MiB limit for the other uploads: (what, path,
/// content type, body).
fn other_uploads() -> Vec<(&'static str, &'static str, &'static str, Vec<u8>)> {
    const N: usize = 1_000_000;
    let nested = |open: &str, close: &str| {
        let n = N / (open.len() + close.len());
        format!("{}{}", open.repeat(n), close.repeat(n)).into_bytes()
    };
    let laughs = {
        let mut x = String::from("<?xml version=\"1.0\"?><!DOCTYPE r [<!ENTITY a \"lol\">");
        for i in 1..10 {
            x += &format!("<!ENTITY a{i} \"{}\">", format!("&a{};", i - 1).repeat(10));
        }
        x + "]><Results><System>&a9;</System></Results>"
    };
    let items = format!("{{\"Items\": [{}]}}", vec!["{}"; N / 3].join(","));
    vec![
        (
            "fio JSON nested deep",
            "/api/v1/measurements/parse",
            "application/json",
            {
                let mut b = b"{\"fio version\": \"3\", \"jobs\": ".to_vec();
                b.extend(nested("[", "]"));
                b.truncate(N);
                b
            },
        ),
        (
            "DiskSpd XML of a million elements",
            "/api/v1/measurements/parse",
            "text/xml",
            format!("<Results>{}</Results>", "<a/>".repeat(N / 4 - 5)).into_bytes(),
        ),
        (
            "DiskSpd XML nested deep",
            "/api/v1/measurements/parse",
            "text/xml",
            nested("<a>", "</a>"),
        ),
        (
            "XML entity expansion",
            "/api/v1/measurements/parse",
            "text/xml",
            laughs.into_bytes(),
        ),
        (
            "elbencho CSV of commas",
            "/api/v1/measurements/parse",
            "text/csv",
            {
                let mut b = b"ISO date,label,operation,IOPS [last]\n".to_vec();
                b.extend(",".repeat(N - 100).bytes());
                b
            },
        ),
        (
            "Retail Prices page of empty items",
            "/api/v1/prices/import?dry_run=true",
            "application/json",
            items.into_bytes(),
        ),
    ]
}

/// The peak resident memory of process `pid`, in MiB.
fn peak_mib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.split_whitespace().next()?.parse::<u64>().ok())
        .map(|kib| kib / 1024)
        .expect("VmHWM")
}

#[tokio::test]
async fn workbook_bombs_get_4xx_within_a_second_and_the_server_stays_small() {
    let dir = tempfile::tempdir().unwrap();
    let (mut child, addr) = crate::helpers::serve_binary(dir.path(), &[]).await;
    let pid = child.id().unwrap();
    let bombs = [
        ("far cell", far_cell()),
        ("zip bomb", zip_bomb()),
        ("shared-strings bomb", strings_bomb()),
        ("understated part", understated()),
    ];
    for (what, bytes) in &bombs {
        assert!(bytes.len() < 1_100_000, "{what}: {} bytes", bytes.len());
    }
    let client = reqwest::Client::new();
    let post = |bytes: Vec<u8>| {
        client
            .post(format!("http://{addr}/api/v1/avs/inventory"))
            .header("content-type", "application/octet-stream")
            .body(bytes)
            .send()
    };
    for (what, bytes) in bombs {
        let started = Instant::now();
        let res = post(bytes).await.unwrap();
        let took = started.elapsed();
        let status = res.status();
        let body: serde_json::Value = res.json().await.unwrap();
        assert!(status.is_client_error(), "{what}: {status} {body}");
        assert!(took < Duration::from_secs(1), "{what} took {took:?}");
        let message = body["error"].as_str().unwrap();
        assert!(
            message.contains("limit")
                || message.contains("farthest")
                || message.contains("declared"),
            "{what}: {message}"
        );
        assert!(message.len() < 400, "{what}: {message}");
        eprintln!("{what}: {status} in {took:?}: {message}");
    }
    // The largest parts admitted are read, within the same memory.
    let started = Instant::now();
    let res = post(largest_admitted()).await.unwrap();
    assert_eq!(res.status(), 200, "{}", res.text().await.unwrap());
    eprintln!("largest admitted parts read in {:?}", started.elapsed());
    // The other uploads, at the body limit: answered within a second, never a 5xx.
    for (what, path, ctype, body) in other_uploads() {
        let started = Instant::now();
        let res = client
            .post(format!("http://{addr}{path}"))
            .header("content-type", ctype)
            .body(body)
            .send()
            .await
            .unwrap();
        let took = started.elapsed();
        let status = res.status();
        let text = res.text().await.unwrap();
        assert!(status.as_u16() < 500, "{what}: {status} {text}");
        assert!(took < Duration::from_secs(1), "{what} took {took:?}");
        assert!(text.len() < 2000 || status == 200, "{what}: {text}");
        eprintln!("{what}: {status} in {took:?}");
    }
    let peak = peak_mib(pid);
    eprintln!("peak RSS {peak} MiB");
    assert!(peak < 200, "peak RSS {peak} MiB");
    let healthz = reqwest::get(format!("http://{addr}/healthz")).await;
    assert_eq!(healthz.unwrap().status(), 200);
    let _ = child.kill().await;
}
