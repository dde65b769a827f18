//! Progress lines that go both to the terminal and to a log file in the run's directory, so a
//! long run can be followed live and read again after it ends or is interrupted.

use std::io::Write;
use std::path::{Path, PathBuf};

/// A run's log: each line is printed and appended to one file.
#[derive(Clone, Debug)]
pub struct Log {
    path: PathBuf,
}

impl Log {
    /// The log `name` in the run's directory `dir` (created on the first line if missing).
    pub fn new(dir: &Path, name: &str) -> Log {
        Log { path: dir.join(name) }
    }

    /// The file the lines are appended to.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Prints `text` and appends it as a line to the file.
    ///
    /// # Panics
    /// If the file cannot be opened or written: a run whose log is lost should stop rather than
    /// go on unrecorded.
    pub fn line(&self, text: &str) {
        println!("{text}");
        // Opened anew for each line, so an interrupted run leaves every line it printed.
        let mut file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&self.path)
            .unwrap_or_else(|e| panic!("cannot open the log {}: {e}", self.path.display()));
        writeln!(file, "{text}")
            .unwrap_or_else(|e| panic!("cannot write the log {}: {e}", self.path.display()));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_appended_across_logs_of_the_same_file() {
        let dir = std::env::temp_dir().join(format!("gammon-train-log-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let _ = std::fs::remove_file(dir.join("test.log"));
        Log::new(&dir, "test.log").line("one");
        Log::new(&dir, "test.log").line("two");
        assert_eq!(std::fs::read_to_string(dir.join("test.log")).unwrap(), "one\ntwo\n");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
