//! Running the built `chatmark` binary, shared by the CLI's test files.

use std::io::{ErrorKind, Write};
use std::process::{Command, Output, Stdio};

/// Runs `chatmark args…` with `stdin` as its standard input, to the end.
///
/// The input is written from a thread while the output is read, so that neither pipe can
/// fill and stall the other; a command that exits without reading its input (it reads files
/// named on its command line) closes the pipe early, which is no failure of the test.
pub fn run(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_chatmark"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    let bytes = stdin.as_bytes().to_vec();
    let writer = std::thread::spawn(move || match input.write_all(&bytes) {
        Err(e) if e.kind() != ErrorKind::BrokenPipe => Err(e),
        _ => Ok(()),
    });
    let output = child.wait_with_output().unwrap();
    writer.join().unwrap().unwrap();
    output
}

/// Bytes of an output stream as text.
pub fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}
