//! The data file tests: round trips, torn tails, damage, the scan after a torn block.

use super::*;

fn sample_blocks() -> Vec<Block> {
    let start = Position::START;
    let next = start
        .board
        .legal_moves()
        .0
        .trailing_zeros()
        .try_into()
        .ok()
        .and_then(crate::board::Square::new)
        .and_then(|s| start.play(crate::board::Move::play(s)))
        .expect("the start has moves");
    vec![
        Block {
            game: 7,
            records: vec![
                Record {
                    position: start,
                    label: 0,
                    depth: 12,
                    kind: LabelKind::Search,
                },
                Record {
                    position: next,
                    label: -64,
                    depth: 0,
                    kind: LabelKind::Exact,
                },
            ],
        },
        Block {
            game: 3,
            records: vec![Record {
                position: next,
                label: 64,
                depth: 0,
                kind: LabelKind::Outcome,
            }],
        },
    ]
}

/// A whole random game with a pass in it as one block, with a position that does not follow
/// (a jump back to the start after 20 positions, and back to the game after it), depths above
/// 63 and every label kind.
fn game_block() -> Block {
    for seed in 1.. {
        let mut rng = crate::rng::Rng::new(seed);
        let mut pos = Position::START;
        let mut records = Vec::new();
        let mut passes = 0;
        loop {
            let n = records.len();
            records.push(Record {
                position: pos,
                label: (n % 129) as i8 - 64,
                depth: (n * 7 % 80) as u8,
                kind: [LabelKind::Outcome, LabelKind::Search, LabelKind::Exact][n % 3],
            });
            let moves = pos.legal_move_list();
            if moves.is_empty() {
                break;
            }
            let mv = moves[rng.below(moves.len() as u64) as usize];
            passes += usize::from(mv.is_pass());
            pos = pos.play(mv).expect("legal");
            if records.len() == 20 {
                records.push(Record {
                    position: Position::START,
                    label: 1,
                    depth: 0,
                    kind: LabelKind::Outcome,
                });
            }
        }
        if passes > 0 {
            return Block { game: 9, records };
        }
    }
    unreachable!("some random game has a pass")
}

fn image(blocks: &[Block], version: u32) -> Vec<u8> {
    let mut bytes = file_header(version).to_vec();
    for b in blocks {
        bytes.extend_from_slice(&b.to_bytes(version));
    }
    bytes
}

#[test]
fn a_failed_write_leaves_the_old_file_whole() {
    let dir = std::env::temp_dir().join(format!("wedge-atomic-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("d.wdb");
    write_data_file(&path, &sample_blocks()).unwrap();
    let before = std::fs::read(&path).unwrap();
    assert_eq!(read_data_file(&path).unwrap().blocks, sample_blocks());
    // The partial file cannot be made (a folder holds its name): the write fails, and the
    // file it would have replaced is unchanged.
    std::fs::create_dir(dir.join("d.wdb.partial")).unwrap();
    assert!(write_data_file(&path, &[]).is_err());
    assert_eq!(std::fs::read(&path).unwrap(), before);
    std::fs::remove_dir(dir.join("d.wdb.partial")).unwrap();
    // Whole, it replaces the file and leaves no partial one.
    write_data_file(&path, &[]).unwrap();
    assert!(read_data_file(&path).unwrap().blocks.is_empty());
    assert!(!dir.join("d.wdb.partial").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn blocks_round_trip_at_twenty_bytes_a_position_in_version_1() {
    let blocks = sample_blocks();
    let bytes = image(&blocks, 1);
    assert_eq!(bytes.len(), 16 + 2 * 24 + 3 * RECORD_BYTES);
    let back = parse_data(&bytes).expect("sound");
    assert_eq!(back.blocks, blocks);
    assert_eq!(back.version, 1);
    assert_eq!((back.sound_bytes, back.torn_bytes), (bytes.len() as u64, 0));
}

#[test]
fn blocks_round_trip_at_about_three_bytes_a_position_in_version_2() {
    let mut blocks = sample_blocks();
    blocks.push(game_block());
    let bytes = image(&blocks, 2);
    let back = parse_data(&bytes).expect("sound");
    assert_eq!(back.blocks, blocks);
    assert_eq!(back.version, 2);
    assert_eq!((back.sound_bytes, back.torn_bytes), (bytes.len() as u64, 0));
    // A move or a pass costs 3 bytes; the first position, the jump to the start and the one
    // back 17 more each, a depth above 63 2 more.
    let game = &blocks[2];
    let deep = game.records.iter().filter(|r| r.depth >= 64).count();
    let size = game.to_bytes(2).len() - 24;
    assert_eq!(size, 3 * game.records.len() + 3 * 17 + 2 * deep);
    // Sample block 1: the start whole, then one move.
    assert_eq!(blocks[0].to_bytes(2).len() - 24, 3 + 17 + 3);
}

#[test]
fn a_cut_file_keeps_its_complete_blocks() {
    for version in [1, 2] {
        let blocks = sample_blocks();
        let bytes = image(&blocks, version);
        let first_end = 16 + blocks[0].to_bytes(version).len();
        for cut in first_end..bytes.len() {
            let back = parse_data(&bytes[..cut]).expect("a torn tail is not an error");
            assert_eq!(back.blocks, blocks[..1]);
            assert_eq!(back.sound_bytes, first_end as u64);
            assert_eq!(back.torn_bytes, (cut - first_end) as u64);
        }
    }
}

#[test]
fn a_damaged_length_is_not_taken_for_a_torn_tail() {
    // Block 0 claims more records than the file holds: read as a torn tail, the whole blocks
    // after it would be dropped (and cut off by a resumed run).
    for version in [1, 2] {
        let mut bytes = image(&sample_blocks(), version);
        bytes[16 + 8..16 + 12].copy_from_slice(&60_000u32.to_le_bytes());
        bytes[16 + 12..16 + 16].copy_from_slice(&180_000u32.to_le_bytes());
        assert!(
            matches!(
                parse_data(&bytes),
                Err(DataFormatError::Corrupt {
                    offset: 16,
                    block: 0
                })
            ),
            "version {version}"
        );
    }
}

#[test]
fn a_torn_block_of_many_records_is_a_torn_tail() {
    // Blocks of the most records a block may hold, the file cut inside the first: the bytes
    // of its records hold many would-be block headers, and the tail is still read as torn. In
    // version 1, whose records are whole positions, the first record of every would-be block
    // at a record's start reads, and past the budget the file is refused as unsure (cutting
    // it where the error says keeps what a torn tail would), never named corrupt.
    let sample = sample_blocks().remove(0);
    let records: Vec<Record> = sample
        .records
        .iter()
        .cycle()
        .take(MAX_BLOCK_RECORDS as usize)
        .cloned()
        .collect();
    for version in [1, 2] {
        let blocks: Vec<Block> = (0..2)
            .map(|game| Block {
                game,
                records: records.clone(),
            })
            .collect();
        let bytes = image(&blocks, version);
        for cut in [100_000, 300_000] {
            match parse_data(&bytes[..cut.min(bytes.len() - 1)]) {
                Ok(read) => assert!(read.blocks.is_empty() && read.torn_bytes > 0),
                Err(DataFormatError::Unsure { offset: 16, .. }) if version == 1 => {}
                Err(e) => panic!("version {version}, cut {cut}: {e}"),
            }
        }
    }
}

#[test]
fn would_be_blocks_after_a_torn_one_are_checked_within_a_budget() {
    // Block 0 runs past the end; then a would-be block header at every fourth byte, each
    // claiming 1,000 records that fit in the file. Their first records do not read, so none
    // is checksummed (each would cost 20 KB, 10 GB in all).
    let mut bytes = file_header(1).to_vec();
    bytes.extend_from_slice(&[0; 8]);
    bytes.extend_from_slice(&65_536u32.to_le_bytes());
    bytes.extend_from_slice(&[0; 12]);
    while bytes.len() < 1 << 20 {
        bytes.extend_from_slice(&1_000u32.to_le_bytes());
    }
    assert_eq!(scan_after_torn(&bytes, 16, 1), (AfterTorn::Nothing, 0));
    assert_eq!(
        parse_data(&bytes).unwrap().torn_bytes,
        bytes.len() as u64 - 16
    );
    // Would-be blocks whose first record reads: checksummed up to the budget, then the file
    // is refused as one that cannot be told apart, not cut short.
    let one = Block {
        game: 0,
        records: vec![sample_blocks()[0].records[0]],
    };
    let record = image(&[one], 1)[16 + 24..].to_vec();
    let mut bytes = file_header(1).to_vec();
    bytes.extend_from_slice(&[0; 8]);
    bytes.extend_from_slice(&65_536u32.to_le_bytes());
    bytes.extend_from_slice(&[0; 12]);
    while bytes.len() < 1 << 20 {
        bytes.extend_from_slice(&[0; 8]);
        bytes.extend_from_slice(&1_000u32.to_le_bytes());
        bytes.extend_from_slice(&[0; 12]);
        bytes.extend_from_slice(&record);
    }
    let (found, checked) = scan_after_torn(&bytes, 16, 1);
    assert_eq!(found, AfterTorn::TooCostly);
    assert!(checked <= TORN_SCAN_BYTES, "{checked}");
    assert!(matches!(
        parse_data(&bytes),
        Err(DataFormatError::Unsure {
            offset: 16,
            block: 0
        })
    ));
}

#[test]
fn a_damaged_block_is_named() {
    for version in [1, 2] {
        let blocks = sample_blocks();
        let mut bytes = image(&blocks, version);
        let first_end = 16 + blocks[0].to_bytes(version).len();
        // A flipped bit in the second block's record.
        bytes[first_end + 24 + 3] ^= 0x10;
        match parse_data(&bytes) {
            Err(DataFormatError::Corrupt { offset, block }) => {
                assert_eq!((offset, block), (first_end as u64, 1));
            }
            other => panic!("expected corruption, got {other:?}"),
        }
    }
    // A version 2 block whose moves are illegal is corrupt even with a right checksum.
    let block = sample_blocks().remove(0);
    let mut bytes = block.to_bytes(2);
    bytes[24 + 20] = 0; // a1 after the start: not a legal move
    let body: Vec<u8> = bytes[..16].iter().chain(&bytes[24..]).copied().collect();
    bytes[16..24].copy_from_slice(&fnv(&body).to_le_bytes());
    let mut file = file_header(2).to_vec();
    file.extend_from_slice(&bytes);
    assert!(matches!(
        parse_data(&file),
        Err(DataFormatError::Corrupt { block: 0, .. })
    ));
    // So is one whose byte count the record count rules out (checksum made right), even
    // where that count would reach past the end of the file: too small, too large, huge.
    for size in [5u32, 45, 1 << 30] {
        let mut bytes = block.to_bytes(2);
        bytes[12..16].copy_from_slice(&size.to_le_bytes());
        let body: Vec<u8> = bytes[..16].iter().chain(&bytes[24..]).copied().collect();
        bytes[16..24].copy_from_slice(&fnv(&body).to_le_bytes());
        let mut file = file_header(2).to_vec();
        file.extend_from_slice(&bytes);
        file.extend_from_slice(&sample_blocks()[1].to_bytes(2));
        let got = parse_data(&file);
        assert!(
            matches!(got, Err(DataFormatError::Corrupt { block: 0, .. })),
            "{size}: {got:?}"
        );
    }
    assert!(matches!(
        parse_data(b"WEDGEDB2\x01\0\0\0\x14\0\0\0"),
        Err(DataFormatError::Header)
    ));
    assert!(matches!(
        parse_data(b"WEDGEDB1\x02\0\0\0\x14\0\0\0"),
        Err(DataFormatError::Header)
    ));
}
