//! The files the programs read and write: weights in the format of [`NeuralNet::to_bytes`],
//! screens in that of [`Screen::to_bytes`], and labelled positions ([`Sample`]) in fixed-size
//! records.

use gammon_backgammon::Position;
use gammon_bot::net::network::OUTPUTS;
use gammon_bot::net::screen::Screen;
use gammon_bot::net::NeuralNet;
use std::io::Write;
use std::path::Path;

/// Reads the weights file at `path`; `what` names it in the panic message (a flag or argument).
///
/// # Panics
/// If the file cannot be read or does not hold nets.
pub fn read_net(path: &Path, what: &str) -> NeuralNet {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("cannot read {what} {}: {e}", path.display()));
    NeuralNet::from_bytes(&bytes).unwrap_or_else(|e| panic!("{what} {}: {e}", path.display()))
}

/// Reads the screen file at `path` (the format of [`Screen::to_bytes`]); `what` names it in the
/// panic message.
///
/// # Panics
/// If the file cannot be read or does not hold a screen.
pub fn read_screen(path: &Path, what: &str) -> Screen {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("cannot read {what} {}: {e}", path.display()));
    Screen::from_bytes(&bytes).unwrap_or_else(|e| panic!("{what} {}: {e}", path.display()))
}

/// Writes `bytes` to `path` through a temporary file beside it, so that a run stopped while
/// writing leaves the previous file whole rather than a truncated one.
///
/// # Panics
/// If either file cannot be written or renamed.
pub fn save(path: &Path, bytes: &[u8]) {
    let tmp = path.with_extension("tmp");
    std::fs::write(&tmp, bytes).unwrap_or_else(|e| panic!("cannot write {}: {e}", tmp.display()));
    std::fs::rename(&tmp, path).unwrap_or_else(|e| panic!("cannot write {}: {e}", path.display()));
}

/// A labelled position, and the self-play game it came from.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sample {
    /// The game's number (its dice stream); which games are held out depends on it.
    pub game: u32,
    /// The position, the player on roll to play.
    pub position: Position,
    /// The five outputs the nets are trained towards.
    pub label: [f32; OUTPUTS],
}

impl Sample {
    /// The size of a record: the game (u32), the 26 signed counts of the position (i8), the
    /// labels (f32), all little-endian.
    pub const RECORD: usize = 4 + 26 + 4 * OUTPUTS;

    /// Appends the record of this sample to `out`.
    pub fn write(&self, out: &mut Vec<u8>) {
        out.extend(self.game.to_le_bytes());
        out.extend(self.position.board().map(|n| n as u8));
        for v in self.label {
            out.extend(v.to_le_bytes());
        }
    }

    /// The samples of consecutive records; a partial record at the end (a write cut short) is
    /// left out.
    ///
    /// # Panics
    /// If a record holds no valid position.
    pub fn read_all(bytes: &[u8]) -> Vec<Sample> {
        bytes
            .chunks_exact(Sample::RECORD)
            .map(|r| {
                let game = u32::from_le_bytes(r[..4].try_into().unwrap());
                let board: [i8; 26] = std::array::from_fn(|i| r[4 + i] as i8);
                let label = std::array::from_fn(|k| {
                    f32::from_le_bytes(r[30 + 4 * k..34 + 4 * k].try_into().unwrap())
                });
                Sample { game, position: Position::from_board(board).expect("a stored position"), label }
            })
            .collect()
    }
}

/// Reads the samples of the file at `path`; `what` names it in the panic message.
///
/// # Panics
/// If the file cannot be read or holds an invalid position.
pub fn read_samples(path: &Path, what: &str) -> Vec<Sample> {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("cannot read {what} {}: {e}", path.display()));
    Sample::read_all(&bytes)
}

/// Appends the records of `samples` to the file at `path`, creating it if need be: data are
/// written block by block as they are made, so that an interrupted run keeps them.
///
/// # Panics
/// If the file cannot be opened or written.
pub fn append_samples(path: &Path, samples: &[Sample]) {
    let mut bytes = Vec::with_capacity(samples.len() * Sample::RECORD);
    samples.iter().for_each(|s| s.write(&mut bytes));
    std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .and_then(|mut f| f.write_all(&bytes))
        .unwrap_or_else(|e| panic!("cannot write {}: {e}", path.display()));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn samples_read_back_as_written() {
        let samples = [
            Sample { game: 7, position: Position::initial(), label: [0.5, 0.1, 0.01, 0.2, 0.02] },
            Sample {
                game: u32::MAX,
                position: Position::initial().swapped(),
                label: [1.0, 0.0, 0.0, 0.0, 0.0],
            },
        ];
        let mut bytes = vec![];
        samples.iter().for_each(|s| s.write(&mut bytes));
        assert_eq!(bytes.len(), 2 * Sample::RECORD);
        assert_eq!(Sample::read_all(&bytes), samples);
        // A record cut short by an interrupted write is dropped, not misread.
        assert_eq!(Sample::read_all(&bytes[..bytes.len() - 3]), samples[..1]);
    }

    #[test]
    fn saved_nets_read_back() {
        let dir = std::env::temp_dir().join(format!("gammon-train-files-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let net = NeuralNet::random(4, 3);
        let path = dir.join("net.bin");
        save(&path, &net.to_bytes());
        assert!(!path.with_extension("tmp").exists());
        assert_eq!(read_net(&path, "NET").to_bytes(), net.to_bytes());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
