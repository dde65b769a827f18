//! The answers of the HTTP parser itself (400 for a request that is not HTTP, 431 for a head
//! over the limit) come with an empty body; this wrapper of a connection gives them the JSON
//! `{"message": ...}` that every other refusal has.

use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

/// A connection whose parser refusals are rewritten with a JSON body on their way out.
pub struct JsonParseErrors<S> {
    inner: S,
    pending: Vec<u8>,
}

impl<S> JsonParseErrors<S> {
    /// Wraps `inner`.
    pub fn new(inner: S) -> JsonParseErrors<S> {
        JsonParseErrors { inner, pending: Vec::new() }
    }
}

/// The answer rewritten, when `bytes` is a whole answer of the parser: a 400 or 431 with an
/// empty body (the server's own answers always carry a JSON body).
fn rewrite(bytes: &[u8]) -> Option<Vec<u8>> {
    let message = if bytes.starts_with(b"HTTP/1.1 431 ") {
        "the request head (request line and headers) is too large"
    } else if bytes.starts_with(b"HTTP/1.1 400 ") {
        "the request is not valid HTTP/1.1"
    } else {
        return None;
    };
    let text = std::str::from_utf8(bytes).ok()?;
    let head = text.strip_suffix("\r\n\r\n")?;
    if head.contains("\r\n\r\n") {
        return None;
    }
    let mut lines: Vec<&str> = head.split("\r\n").collect();
    let empty = lines.iter().position(|l| l.eq_ignore_ascii_case("content-length: 0"))?;
    let body = serde_json::json!({ "message": message }).to_string();
    let length = format!("content-length: {}", body.len());
    lines[empty] = &length;
    lines.insert(1, "content-type: application/json");
    Some(format!("{}\r\n\r\n{body}", lines.join("\r\n")).into_bytes())
}

impl<S: AsyncWrite + Unpin> JsonParseErrors<S> {
    fn drain(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        while !self.pending.is_empty() {
            let n = std::task::ready!(Pin::new(&mut self.inner).poll_write(cx, &self.pending))?;
            if n == 0 {
                return Poll::Ready(Err(io::ErrorKind::WriteZero.into()));
            }
            self.pending.drain(..n);
        }
        Poll::Ready(Ok(()))
    }
}

impl<S: AsyncRead + Unpin> AsyncRead for JsonParseErrors<S> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_read(cx, buf)
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for JsonParseErrors<S> {
    fn poll_write(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        std::task::ready!(self.drain(cx))?;
        if let Some(rewritten) = rewrite(buf) {
            self.pending = rewritten;
            // The caller's bytes are taken; the rewritten ones go out now or on the next flush.
            let _ = self.drain(cx)?;
            return Poll::Ready(Ok(buf.len()));
        }
        Pin::new(&mut self.inner).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        std::task::ready!(self.drain(cx))?;
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        std::task::ready!(self.drain(cx))?;
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}
