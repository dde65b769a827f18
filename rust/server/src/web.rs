//! The web page at `/`: static files compiled into the binary, served with a strict
//! Content-Security-Policy. The page only calls this server's JSON endpoints; every rule stays
//! on the server (see docs/web.md).

use axum::http::{header, HeaderName, HeaderValue, Method};
use axum::response::IntoResponse;
use axum::routing::{get, MethodRouter};

use crate::state::AppState;

/// This server's own files only: no inline script or style, no other site, no framing, no
/// forms posting anywhere, no plugins.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'none'; script-src 'self'; style-src 'self'; \
     img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/// The page's files: path, content type and text.
pub const FILES: [(&str, &str, &str); 3] = [
    ("/", "text/html; charset=utf-8", include_str!("../static/index.html")),
    ("/static/app.js", "text/javascript; charset=utf-8", include_str!("../static/app.js")),
    ("/static/style.css", "text/css; charset=utf-8", include_str!("../static/style.css")),
];

/// The page's routes, apart from the API's (they are not JSON endpoints, so the OpenAPI
/// description leaves them out), and open without the server's token: they hold no data, and a
/// browser cannot send a bearer token when it loads a page.
pub fn routes() -> Vec<(&'static str, Method, MethodRouter<AppState>)> {
    FILES
        .iter()
        .map(|&(path, content_type, text)| {
            let handler = get(move || async move { page(content_type, text) });
            (path, Method::GET, handler)
        })
        .collect()
}

/// True for a path of the page, which needs no token.
pub fn is_page(path: &str) -> bool {
    FILES.iter().any(|&(p, _, _)| p == path)
}

fn page(content_type: &'static str, text: &'static str) -> impl IntoResponse {
    let headers: [(HeaderName, HeaderValue); 6] = [
        (header::CONTENT_TYPE, HeaderValue::from_static(content_type)),
        (header::CONTENT_SECURITY_POLICY, HeaderValue::from_static(CONTENT_SECURITY_POLICY)),
        (header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff")),
        (header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY")),
        (header::REFERRER_POLICY, HeaderValue::from_static("no-referrer")),
        (header::CACHE_CONTROL, HeaderValue::from_static("no-cache")),
    ];
    (headers, text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Config, Server};
    use std::io::{Read, Write};

    fn get(server: &Server, path: &str, extra: &str) -> (String, String) {
        let mut stream = std::net::TcpStream::connect(server.address()).unwrap();
        let request =
            format!("GET {path} HTTP/1.1\r\nHost: {}\r\n{extra}Connection: close\r\n\r\n", server.address());
        stream.write_all(request.as_bytes()).unwrap();
        let mut answer = String::new();
        stream.read_to_string(&mut answer).unwrap();
        let (head, body) = answer.split_once("\r\n\r\n").unwrap();
        (head.to_ascii_lowercase(), body.to_string())
    }

    #[test]
    fn the_page_s_files_come_with_their_types_and_a_strict_policy_even_with_a_token() {
        let config = Config { threads: Some(1), token: Some("s3cret".into()), ..Config::default() };
        let server = Server::start("127.0.0.1", 0, config).unwrap();
        for (path, content_type, text) in FILES {
            let (head, body) = get(&server, path, "");
            assert!(head.starts_with("http/1.1 200"), "{path}: {head}");
            assert!(head.contains(&format!("content-type: {content_type}")), "{path}: {head}");
            assert!(head.contains(&format!("content-security-policy: {CONTENT_SECURITY_POLICY}")), "{head}");
            assert!(head.contains("x-content-type-options: nosniff"), "{head}");
            assert!(!head.contains("access-control-allow"), "{head}");
            assert_eq!(body, text);
        }
        // The page is open; the endpoints it calls still need the token.
        let (head, _) = get(&server, "/v1/board.svg?position=initial", "");
        assert!(head.starts_with("http/1.1 401"), "{head}");
        let (head, _) = get(&server, "/static/other.js", "Authorization: Bearer s3cret\r\n");
        assert!(head.starts_with("http/1.1 404"), "{head}");
    }

    #[test]
    fn the_page_loads_nothing_from_elsewhere() {
        for (path, _, text) in FILES {
            for outside in ["http://", "https://", "//cdn", "@import"] {
                assert!(!text.contains(outside) || path == "/", "{path} names {outside}");
            }
        }
        // The page's own links are to this server only.
        let (_, _, html) = FILES[0];
        assert!(!html.contains("src=\"http") && !html.contains("href=\"http"));
        assert!(!html.contains("<script>") && !html.contains("style="), "no inline script or style");
    }
}
