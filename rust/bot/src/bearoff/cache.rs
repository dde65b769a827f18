//! The bear-off databases kept on disk from one process to the next.
//!
//! Building both databases takes about half a second on two cores, which every process that
//! meets a bear-off paid again: a command-line rollout of a second or so spent a third of it
//! there. The first process to build them now also writes them to a file in the user's cache
//! directory, and later ones read that file instead (some 30 MB, a few hundredths of a second).
//!
//! What is read is trusted only after two checks: a hash of the file's bytes (a file cut short or
//! damaged), and a sample of entries computed again with this build's own code from the entries
//! they depend on, which must match to the bit (a file written by a build whose databases
//! differed). Where either fails, or the file cannot be read or written, the databases are built
//! as before, and the file written afresh; a file is never needed.
//!
//! The directory is `$GAMMON_CACHE_DIR` where that is set (set but empty: no file is read or
//! written), else `$XDG_CACHE_HOME/gammon`, else `~/.cache/gammon`.

use std::io::Write;
use std::path::{Path, PathBuf};

/// The first bytes of every file, then the format's version: a change to the layout below
/// changes the version, so that no older file is misread.
const MAGIC: &[u8; 12] = b"gammon-cache";
const VERSION: u32 = 1;
/// Magic, version, payload length and payload hash.
const HEADER: usize = 12 + 4 + 8 + 8;

/// The directory the files go in, or `None` where there is none to use.
fn dir() -> Option<PathBuf> {
    if let Some(d) = std::env::var_os("GAMMON_CACHE_DIR") {
        return (!d.is_empty()).then(|| PathBuf::from(d));
    }
    let base =
        std::env::var_os("XDG_CACHE_HOME").filter(|d| !d.is_empty()).map(PathBuf::from).or_else(|| {
            std::env::var_os("HOME").filter(|d| !d.is_empty()).map(|h| Path::new(&h).join(".cache"))
        })?;
    Some(base.join("gammon"))
}

/// A 64-bit hash of `bytes` (FNV-1a over 8-byte words): enough to tell a damaged file.
fn hash(bytes: &[u8]) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64 ^ bytes.len() as u64;
    let mut words = bytes.chunks_exact(8);
    for w in &mut words {
        h = (h ^ u64::from_le_bytes(w.try_into().unwrap())).wrapping_mul(0x100_0000_01b3);
    }
    for &b in words.remainder() {
        h = (h ^ b as u64).wrapping_mul(0x100_0000_01b3);
    }
    h
}

/// What the file `name` of the cache directory holds, where it is there whole and `decode`
/// accepts it (`decode` makes the checks of the tables themselves); else what `build` makes,
/// written to that file as `encode` gives it for the next process.
pub(super) fn load_or_build<T>(
    name: &str,
    decode: impl FnOnce(&[u8]) -> Option<T>,
    build: impl FnOnce() -> T,
    encode: impl FnOnce(&T) -> Vec<u8>,
) -> T {
    let path = dir().map(|d| d.join(name));
    if let Some(found) = path.as_deref().and_then(read_from).and_then(|bytes| decode(&bytes)) {
        return found;
    }
    let built = build();
    if let Some(path) = path {
        let _ = write_to(&path, &encode(&built));
    }
    built
}

/// The payload of the file at `path`, if it holds one whole: `None` for a missing file, another
/// format or version, or bytes that do not match their hash.
fn read_from(path: &Path) -> Option<Vec<u8>> {
    let mut bytes = std::fs::read(path).ok()?;
    if bytes.len() < HEADER || &bytes[..12] != MAGIC {
        return None;
    }
    let word = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap());
    let version = u32::from_le_bytes(bytes[12..16].try_into().unwrap());
    let (len, sum) = (word(16), word(24));
    if version != VERSION || len != (bytes.len() - HEADER) as u64 || sum != hash(&bytes[HEADER..]) {
        return None;
    }
    bytes.drain(..HEADER);
    Some(bytes)
}

/// Writes `payload` to `path` (and the directories above it), through a file of its own that
/// is then renamed: a process reading meanwhile, or another writing the same file, never sees
/// half of one.
fn write_to(path: &Path, payload: &[u8]) -> std::io::Result<()> {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent)?;
    }
    let partial = path.with_extension(format!("partial-{}", std::process::id()));
    let written = (|| {
        let mut file = std::fs::File::create(&partial)?;
        file.write_all(MAGIC)?;
        file.write_all(&VERSION.to_le_bytes())?;
        file.write_all(&(payload.len() as u64).to_le_bytes())?;
        file.write_all(&hash(payload).to_le_bytes())?;
        file.write_all(payload)?;
        file.sync_all()?;
        std::fs::rename(&partial, path)
    })();
    if written.is_err() {
        let _ = std::fs::remove_file(&partial);
    }
    written
}

/// Appends `values` to `out`, little-endian.
pub(super) fn put_f32(out: &mut Vec<u8>, values: &[f32]) {
    out.extend(values.iter().flat_map(|v| v.to_le_bytes()));
}

/// Appends `values` to `out`, little-endian.
pub(super) fn put_f64(out: &mut Vec<u8>, values: &[f64]) {
    out.extend(values.iter().flat_map(|v| v.to_le_bytes()));
}

/// Reads `n` values from the front of `bytes`, which then holds the rest; `None` if too short.
pub(super) fn take_f32(bytes: &mut &[u8], n: usize) -> Option<Vec<f32>> {
    let (head, rest) = bytes.split_at_checked(4 * n)?;
    *bytes = rest;
    Some(head.chunks_exact(4).map(|b| f32::from_le_bytes(b.try_into().unwrap())).collect())
}

/// Reads `n` values from the front of `bytes`, which then holds the rest; `None` if too short.
pub(super) fn take_f64(bytes: &mut &[u8], n: usize) -> Option<Vec<f64>> {
    let (head, rest) = bytes.split_at_checked(8 * n)?;
    *bytes = rest;
    Some(head.chunks_exact(8).map(|b| f64::from_le_bytes(b.try_into().unwrap())).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_is_read_back_whole_or_not_at_all() {
        let dir = std::env::temp_dir().join(format!("gammon-cache-test-{}", std::process::id()));
        let path = dir.join("nested").join("tables.bin");
        let mut payload = vec![];
        put_f32(&mut payload, &[1.5, -0.25, f32::MIN_POSITIVE]);
        put_f64(&mut payload, &[std::f64::consts::PI]);
        write_to(&path, &payload).unwrap();
        let read = read_from(&path).unwrap();
        assert_eq!(read, payload);
        let mut rest = &read[..];
        assert_eq!(take_f32(&mut rest, 3).unwrap(), [1.5, -0.25, f32::MIN_POSITIVE]);
        assert_eq!(take_f64(&mut rest, 1).unwrap(), [std::f64::consts::PI]);
        assert!(rest.is_empty() && take_f32(&mut rest, 1).is_none());
        // A byte changed, a file cut short, another version: none is read.
        let whole = std::fs::read(&path).unwrap();
        let mut damaged = whole.clone();
        damaged[HEADER + 3] ^= 1;
        let mut other = whole.clone();
        other[12] ^= 1;
        for bytes in [damaged, whole[..whole.len() - 1].to_vec(), other, b"gammon".to_vec()] {
            std::fs::write(&path, bytes).unwrap();
            assert!(read_from(&path).is_none());
        }
        assert!(read_from(&dir.join("missing.bin")).is_none());
        // No partial file is left behind.
        let names: Vec<_> =
            std::fs::read_dir(dir.join("nested")).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert_eq!(names, ["tables.bin"]);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
