//! One client address cannot take every connection slot: 1,100 connections from one
//! address that never finish their headers leave `/healthz` answering another client
//! within 100 ms, and after a second the server keeps only a quarter of its
//! per-address limit of them.

use std::net::SocketAddr;
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};

/// A connection from `from` (a loopback address) to `to`.
async fn connect_from(from: &str, to: SocketAddr) -> std::io::Result<TcpStream> {
    let socket = TcpSocket::new_v4()?;
    socket.bind(format!("{from}:0").parse().unwrap())?;
    socket.connect(to).await
}

/// Whether the server has closed `s` (a read ends or fails within a moment).
async fn closed(s: &mut TcpStream) -> bool {
    let mut buf = [0u8; 64];
    matches!(
        tokio::time::timeout(Duration::from_millis(20), s.read(&mut buf)).await,
        Ok(Ok(0) | Err(_))
    )
}

#[tokio::test]
async fn slow_connections_from_one_address_leave_healthz_fast_for_others() {
    // 1,100 sockets here, and the server (which inherits the limit) holds as many: a shell's
    // default soft limit of 1,024 open files is raised to its hard limit.
    let nofile = rlimit::increase_nofile_limit(u64::MAX).expect("the open-file limit");
    assert!(
        nofile >= 1200,
        "open files limited to {nofile}; raise the hard limit (ulimit -Hn)"
    );
    let dir = tempfile::tempdir().unwrap();
    let (_server, addr) = crate::helpers::serve_binary(dir.path(), &[]).await;
    let to: SocketAddr = addr.parse().unwrap();

    // 1,100 connections from 127.0.0.2, each with the start of a request head and no end.
    let mut held = Vec::with_capacity(1100);
    for i in 0..1100 {
        let mut s = connect_from("127.0.0.2", to)
            .await
            .unwrap_or_else(|e| panic!("connection {i}: {e}"));
        let _ = s
            .write_all(format!("GET /healthz HTTP/1.1\r\nHost: {addr}\r\n").as_bytes())
            .await;
        held.push(s);
    }

    // Another client (127.0.0.1), a new connection each time.
    let client = reqwest::Client::builder()
        .local_address("127.0.0.1".parse::<std::net::IpAddr>().unwrap())
        .pool_max_idle_per_host(0)
        .build()
        .unwrap();
    let mut slowest = Duration::ZERO;
    for _ in 0..20 {
        let started = Instant::now();
        let res = client
            .get(format!("http://{addr}/healthz"))
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), 200);
        slowest = slowest.max(started.elapsed());
    }
    eprintln!("healthz with 1,100 slow connections from another address: at most {slowest:?}");
    assert!(slowest < Duration::from_millis(100), "{slowest:?}");

    // Past a second without headers, the server keeps at most a quarter of its
    // per-address limit (256) of them.
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let mut open = 0;
    for s in &mut held {
        if !closed(s).await {
            open += 1;
        }
    }
    assert!((1..=64).contains(&open), "{open} slow connections kept");
}
