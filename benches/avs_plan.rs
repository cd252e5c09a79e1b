//! An RVTools workbook of 10,000 VMs with 40,000 disks: imported (`inventory::parse`)
//! and planned (`avs::plan`: host counts, the layout search with every candidate
//! evaluated by the engine, and the TCO).

use criterion::{Criterion, criterion_group, criterion_main};
use rust_xlsxwriter::Workbook;
use std::hint::black_box;
use volplan::avs::{PlanRequest, plan};
use volplan::engine::pricing::book;
use volplan::inventory::{self, Options};

const VMS: u32 = 10_000;
const DISKS_PER_VM: u32 = 4;

fn workbook() -> Vec<u8> {
    let mut book = Workbook::new();
    let info = book.add_worksheet();
    info.set_name("vInfo").unwrap();
    let head = [
        "VM",
        "Powerstate",
        "Template",
        "CPUs",
        "Memory",
        "Provisioned MiB",
        "In Use MiB",
        "Path",
        "Cluster",
    ];
    for (c, h) in head.iter().enumerate() {
        info.write_string(0, c as u16, *h).unwrap();
    }
    for i in 0..VMS {
        let r = i + 1;
        info.write_string(r, 0, format!("vm{i:05}")).unwrap();
        info.write_string(
            r,
            1,
            if i % 20 == 0 {
                "poweredOff"
            } else {
                "poweredOn"
            },
        )
        .unwrap();
        info.write_boolean(r, 2, false).unwrap();
        info.write_number(r, 3, f64::from(2 + i % 7)).unwrap();
        info.write_number(r, 4, f64::from(4096 * (1 + i % 8)))
            .unwrap();
        info.write_number(r, 5, f64::from(102_400 + (i % 50) * 10_240))
            .unwrap();
        info.write_number(r, 6, f64::from(51_200 + (i % 50) * 5_120))
            .unwrap();
        info.write_string(r, 7, format!("[ds{:02}] vm{i:05}/vm{i:05}.vmx", i % 40))
            .unwrap();
        info.write_string(r, 8, "Cluster-1").unwrap();
    }
    let disk = book.add_worksheet();
    disk.set_name("vDisk").unwrap();
    for (c, h) in [
        "VM",
        "Disk",
        "Capacity MiB",
        "Raw",
        "Sharing mode",
        "Disk Path",
    ]
    .iter()
    .enumerate()
    {
        disk.write_string(0, c as u16, *h).unwrap();
    }
    let mut r = 1;
    for i in 0..VMS {
        for d in 0..DISKS_PER_VM {
            disk.write_string(r, 0, format!("vm{i:05}")).unwrap();
            disk.write_string(r, 1, format!("Hard disk {}", d + 1))
                .unwrap();
            disk.write_number(r, 2, f64::from(25_600 + (i % 50) * 2_560))
                .unwrap();
            disk.write_boolean(r, 3, false).unwrap();
            disk.write_string(r, 4, "sharingNone").unwrap();
            disk.write_string(
                r,
                5,
                format!("[ds{:02}] vm{i:05}/vm{i:05}_{d}.vmdk", i % 40),
            )
            .unwrap();
            r += 1;
        }
    }
    book.save_to_buffer().unwrap()
}

fn bench(c: &mut Criterion) {
    let bytes = workbook();
    let opts = Options {
        include_powered_off: true,
        ..Options::default()
    };
    let inv = inventory::parse(&bytes, opts).unwrap();
    assert_eq!((inv.vms.len(), inv.summary.disks), (10_000, 40_000));
    let mut req = PlanRequest::new(inv.clone());
    req.region = Some("westus2".to_owned());
    req.default_mibps_per_vm = Some(2.0);
    req.default_iops_per_vm = Some(64.0);
    let mut g = c.benchmark_group("avs");
    g.sample_size(10);
    g.bench_function("import 10,000 VMs / 40,000 disks", |b| {
        b.iter(|| inventory::parse(black_box(&bytes), opts).unwrap())
    });
    g.bench_function("plan 10,000 VMs", |b| {
        b.iter(|| plan(black_box(&req), book()).unwrap())
    });
    g.bench_function("import and plan 10,000 VMs / 40,000 disks", |b| {
        b.iter(|| {
            let inv = inventory::parse(black_box(&bytes), opts).unwrap();
            let mut r = PlanRequest::new(inv);
            r.region = Some("westus2".to_owned());
            r.default_mibps_per_vm = Some(2.0);
            r.default_iops_per_vm = Some(64.0);
            plan(&r, book()).unwrap()
        })
    });
    g.finish();
}

criterion_group! {
    name = benches;
    // Criterion's plots need a registered font; the figures are what matter here.
    config = Criterion::default().without_plots();
    targets = bench
}
criterion_main!(benches);
