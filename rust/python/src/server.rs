//! `Server` for Python: a handle on the HTTP bot backend of `gammon-server`, which serves on its
//! own threads and never takes the GIL.

use crate::bot::Ply;
use crate::errors::{to_py, GammonError};
use gammon_server::{Config, StartError};
use pyo3::exceptions::PyOSError;
use pyo3::prelude::*;
use pyo3::types::PyTuple;
use std::net::SocketAddr;
use std::sync::Mutex;

/// The HTTP bot backend, serving on its own threads from the moment it is created until
/// `stop()` (or the end of a `with` block). With a `token`, every endpoint but `/health` needs
/// `Authorization: Bearer <token>`.
#[pyclass(module = "gammon", frozen)]
pub struct Server {
    inner: Mutex<gammon_server::Server>,
    address: SocketAddr,
}

/// An int argument that must fit `range`, read without TypeError or OverflowError surprises.
fn bounded(name: &str, value: &Bound<'_, PyAny>, range: std::ops::RangeInclusive<i64>) -> PyResult<i64> {
    match value.extract::<i64>() {
        Ok(v) if range.contains(&v) => Ok(v),
        _ => Err(GammonError::new_err(format!(
            "{name} must be an integer in {}..={}, got {value}",
            range.start(),
            range.end()
        ))),
    }
}

#[pymethods]
impl Server {
    #[new]
    #[pyo3(
        signature = (host="127.0.0.1", port=None, ply=Ply::default(), threads=None, token=None),
        text_signature = "(host='127.0.0.1', port=0, ply=0, threads=None, token=None)"
    )]
    fn new(
        py: Python<'_>,
        host: &str,
        port: Option<&Bound<'_, PyAny>>,
        ply: Ply,
        threads: Option<&Bound<'_, PyAny>>,
        token: Option<String>,
    ) -> PyResult<Server> {
        let port = match port {
            Some(p) => bounded("port", p, 0..=65535)? as u16,
            None => 0,
        };
        let threads = threads.map(|t| bounded("threads", t, 1..=1024)).transpose()?.map(|t| t as usize);
        let config = Config { ply: ply.depth()?, threads, token, ..Config::default() };
        let host = host.to_string();
        let server =
            py.allow_threads(|| gammon_server::Server::start(&host, port, config)).map_err(|e| match e {
                StartError::Config(e) => to_py(e),
                StartError::Io(e) => PyOSError::new_err(format!("cannot listen on {host}:{port}: {e}")),
            })?;
        let address = server.address();
        Ok(Server { inner: Mutex::new(server), address })
    }

    /// `(host, port)` as bound: port 0 asked for a free port, this is the one chosen.
    #[getter]
    fn address<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(
            py,
            [
                self.address.ip().to_string().into_pyobject(py)?.into_any(),
                self.address.port().into_pyobject(py)?.into_any(),
            ],
        )
    }

    /// The port served.
    #[getter]
    fn port(&self) -> u16 {
        self.address.port()
    }

    /// The base URL, e.g. `http://127.0.0.1:8080`.
    #[getter]
    fn url(&self) -> String {
        format!("http://{}", self.address)
    }

    /// True until the server is stopped.
    #[getter]
    fn running(&self) -> bool {
        self.inner.lock().map(|s| s.is_running()).unwrap_or(false)
    }

    /// Stops accepting, lets requests in progress finish (two seconds at most) and waits for the
    /// server's threads to end. Stopping twice does nothing.
    fn stop(&self, py: Python<'_>) {
        py.allow_threads(|| {
            if let Ok(mut server) = self.inner.lock() {
                server.stop();
            }
        });
    }

    fn __enter__(slf: Py<Self>) -> Py<Self> {
        slf
    }

    #[pyo3(signature = (*_args))]
    fn __exit__(&self, py: Python<'_>, _args: &Bound<'_, PyTuple>) -> bool {
        self.stop(py);
        false
    }

    fn __repr__(&self) -> String {
        let state = if self.running() { "running" } else { "stopped" };
        format!("Server('{}', {state})", self.url())
    }
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Server>()?;
    Ok(())
}
