//! Move generation and flips on raw bitboards: the hottest code in the engine.
//!
//! Everything here works on two `u64`s, `p` (the side to move) and `o` (the opponent), and is
//! allocation-free and branch-free where the CPU has the instructions it uses (AVX2, AVX-512VL/CD,
//! BMI2; the portable fallbacks loop). The typed API in [`super::Board`] wraps these functions.
//! It also holds [`pext`], the bit extraction the pattern evaluation shares.

/// Squares not on the a- or h-file: masks the opponent for horizontal and diagonal directions so a
/// shift can never wrap from one row's edge into the next row.
const INNER_COLS: u64 = 0x7E7E_7E7E_7E7E_7E7E;

/// The legal moves (squares) of the side with discs `p` against the opponent `o`.
///
/// For each of the 4 axes, a parallel-prefix fill walks from the player's discs over runs of opponent
/// discs in both directions (up to 6 long, the most that fits between two squares of a line); the
/// square just beyond a run, if empty, is a move. About 60 integer operations with no branches.
#[inline]
pub fn legal_moves(p: u64, o: u64) -> u64 {
    #[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
    // SAFETY: this branch is compiled only when AVX2 is enabled for the whole build
    // (`target_feature = "avx2"`), so every function in the binary already assumes AVX2 and the
    // CPU that runs it has it; calling an AVX2 function adds no new requirement.
    unsafe {
        legal_moves_avx2(p, o)
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "avx2")))]
    {
        legal_moves_scalar(p, o)
    }
}

/// Portable [`legal_moves`]: the four axes one after the other.
#[inline]
pub fn legal_moves_scalar(p: u64, o: u64) -> u64 {
    let oh = o & INNER_COLS;
    let moves =
        axis_moves(p, oh, 1) | axis_moves(p, o, 8) | axis_moves(p, oh, 7) | axis_moves(p, oh, 9);
    moves & !(p | o)
}

/// [`legal_moves`] with the four axes in the four 64-bit lanes of one AVX2 register (variable
/// per-lane shifts), the same fill as [`axis_moves`]; then the lanes are OR-ed together.
#[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
#[target_feature(enable = "avx2")]
#[inline]
fn legal_moves_avx2(p: u64, o: u64) -> u64 {
    use std::arch::x86_64::*;
    let shift = _mm256_set_epi64x(7, 9, 8, 1);
    let shift2 = _mm256_add_epi64(shift, shift);
    let inner = INNER_COLS as i64;
    let mask = _mm256_set_epi64x(inner, inner, -1, inner);
    let pp = _mm256_set1_epi64x(p as i64);
    let oo = _mm256_and_si256(_mm256_set1_epi64x(o as i64), mask);
    let mut fl = _mm256_and_si256(oo, _mm256_sllv_epi64(pp, shift));
    let mut fr = _mm256_and_si256(oo, _mm256_srlv_epi64(pp, shift));
    fl = _mm256_or_si256(fl, _mm256_and_si256(oo, _mm256_sllv_epi64(fl, shift)));
    fr = _mm256_or_si256(fr, _mm256_and_si256(oo, _mm256_srlv_epi64(fr, shift)));
    let pre_l = _mm256_and_si256(oo, _mm256_sllv_epi64(oo, shift));
    let pre_r = _mm256_srlv_epi64(pre_l, shift);
    fl = _mm256_or_si256(fl, _mm256_and_si256(pre_l, _mm256_sllv_epi64(fl, shift2)));
    fr = _mm256_or_si256(fr, _mm256_and_si256(pre_r, _mm256_srlv_epi64(fr, shift2)));
    fl = _mm256_or_si256(fl, _mm256_and_si256(pre_l, _mm256_sllv_epi64(fl, shift2)));
    fr = _mm256_or_si256(fr, _mm256_and_si256(pre_r, _mm256_srlv_epi64(fr, shift2)));
    let m = _mm256_or_si256(_mm256_sllv_epi64(fl, shift), _mm256_srlv_epi64(fr, shift));
    let m2 = _mm_or_si128(_mm256_castsi256_si128(m), _mm256_extracti128_si256::<1>(m));
    let m1 = _mm_or_si128(m2, _mm_unpackhi_epi64(m2, m2));
    (_mm_cvtsi128_si64(m1) as u64) & !(p | o)
}

/// Candidate moves along one axis (both directions) with shift `d`: squares beyond a run of `o`
/// that starts next to a disc of `p`. Not yet masked by emptiness.
#[inline(always)]
fn axis_moves(p: u64, o: u64, d: u32) -> u64 {
    // Left shifts (towards h8).
    let mut fl = o & (p << d);
    fl |= o & (fl << d);
    let pre_l = o & (o << d);
    fl |= pre_l & (fl << (2 * d));
    fl |= pre_l & (fl << (2 * d));
    // Right shifts (towards a1). `o & (o >> d)` is `pre_l >> d`.
    let mut fr = o & (p >> d);
    fr |= o & (fr >> d);
    let pre_r = pre_l >> d;
    fr |= pre_r & (fr >> (2 * d));
    fr |= pre_r & (fr >> (2 * d));
    (fl << d) | (fr >> d)
}

/// Rays from each square (exclusive) in the 8 directions: `[sq][0..4]` go towards higher bit
/// indices (east +1, north-west +7, north +8, north-east +9), `[sq][4..8]` towards lower ones
/// (west -1, south-east -7, south -8, south-west -9).
static RAYS: [[u64; 8]; 64] = build_rays();

const fn build_rays() -> [[u64; 8]; 64] {
    // (dcol, drow) for each direction in the order documented on RAYS.
    const DIRS: [(i32, i32); 8] = [
        (1, 0),
        (-1, 1),
        (0, 1),
        (1, 1),
        (-1, 0),
        (1, -1),
        (0, -1),
        (-1, -1),
    ];
    let mut rays = [[0u64; 8]; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut d = 0;
        while d < 8 {
            let (dc, dr) = DIRS[d];
            let mut c = (sq % 8) as i32 + dc;
            let mut r = (sq / 8) as i32 + dr;
            let mut mask = 0u64;
            while c >= 0 && c < 8 && r >= 0 && r < 8 {
                mask |= 1u64 << (r * 8 + c);
                c += dc;
                r += dr;
            }
            rays[sq][d] = mask;
            d += 1;
        }
        sq += 1;
    }
    rays
}

/// The opponent discs flipped when the side `p` plays on square index `sq` (0..64) against `o`.
/// Zero when the move flips nothing (that is, when it is illegal). `sq` must be empty.
///
/// Towards higher indices the first non-opponent square of a ray is found with a carry: adding 1 to
/// `o | !ray` ripples through every bit outside the ray and every opponent disc on it, and stops on the
/// first other square of the ray. Towards lower indices the same square is the highest set bit of
/// `!o & ray`, found with a leading-zero count. If that square holds a disc of `p`, the ray between is
/// flipped. Eight such steps, no branches.
#[inline]
pub fn flips(sq: usize, p: u64, o: u64) -> u64 {
    #[cfg(all(
        target_arch = "x86_64",
        target_feature = "avx512vl",
        target_feature = "avx512cd"
    ))]
    // SAFETY: compiled only when AVX-512VL and AVX-512CD are enabled for the whole build, so the
    // CPU running the binary has them (the same argument as for `legal_moves_avx2`).
    unsafe {
        flips_avx512(sq, p, o)
    }
    #[cfg(not(all(
        target_arch = "x86_64",
        target_feature = "avx512vl",
        target_feature = "avx512cd"
    )))]
    {
        flips_scalar(sq, p, o)
    }
}

/// [`flips`] with the four rays towards higher indices in one 256-bit register and the four towards
/// lower indices in another: the carry trick becomes a vector add, the leading-zero count a vector
/// `lzcnt` (AVX-512CD), and a variable shift by 64 gives 0 (no flip), so no lane needs a branch.
/// Compiled on every x86-64 build so the tests can check it wherever the CPU has the instructions;
/// [`flips`] calls it only when the whole build targets them.
#[cfg(target_arch = "x86_64")]
#[cfg_attr(
    not(all(target_feature = "avx512vl", target_feature = "avx512cd")),
    allow(dead_code)
)]
#[target_feature(enable = "avx512vl,avx512cd,avx2")]
#[inline]
fn flips_avx512(sq: usize, p: u64, o: u64) -> u64 {
    use std::arch::x86_64::*;
    let rays = &RAYS[sq & 63];
    // SAFETY: `rays` is a `[u64; 8]` (64 bytes); the two unaligned 32-byte loads read its halves.
    let (up, down) = unsafe {
        (
            _mm256_loadu_si256(rays.as_ptr() as *const __m256i),
            _mm256_loadu_si256(rays.as_ptr().add(4) as *const __m256i),
        )
    };
    let pp = _mm256_set1_epi64x(p as i64);
    let oo = _mm256_set1_epi64x(o as i64);
    let ones = _mm256_set1_epi64x(1);
    // Towards higher indices: (o | !ray) + 1 stops on the first non-opponent square of the ray.
    let outflank_up = _mm256_and_si256(
        _mm256_add_epi64(
            _mm256_or_si256(oo, _mm256_andnot_si256(up, _mm256_set1_epi64x(-1))),
            ones,
        ),
        _mm256_and_si256(pp, up),
    );
    let nonzero = _mm256_cmpneq_epi64_mask(outflank_up, _mm256_setzero_si256());
    let f_up = _mm256_and_si256(
        _mm256_mask_sub_epi64(outflank_up, nonzero, outflank_up, ones),
        up,
    );
    // Towards lower indices: the highest non-opponent square of the ray, by leading zeros.
    let x = _mm256_andnot_si256(oo, down);
    let top = _mm256_srlv_epi64(_mm256_set1_epi64x(i64::MIN), _mm256_lzcnt_epi64(x));
    let outflank_down = _mm256_and_si256(top, pp);
    let f_down = _mm256_and_si256(
        _mm256_sub_epi64(
            _mm256_setzero_si256(),
            _mm256_add_epi64(outflank_down, outflank_down),
        ),
        down,
    );
    let f = _mm256_or_si256(f_up, f_down);
    let f2 = _mm_or_si128(_mm256_castsi256_si128(f), _mm256_extracti128_si256::<1>(f));
    let f1 = _mm_or_si128(f2, _mm_unpackhi_epi64(f2, f2));
    _mm_cvtsi128_si64(f1) as u64
}

/// Portable [`flips`]: the eight rays one after the other.
#[inline(always)]
pub fn flips_scalar(sq: usize, p: u64, o: u64) -> u64 {
    let rays = &RAYS[sq & 63];
    let mut f = 0u64;
    let mut d = 0;
    while d < 4 {
        let ray = scalar_only(rays[d]);
        let outflank = (o | !ray).wrapping_add(1) & p & ray;
        f |= scalar_only(outflank.wrapping_sub((outflank != 0) as u64) & ray);
        d += 1;
    }
    while d < 8 {
        let ray = scalar_only(rays[d]);
        let x = !o & ray;
        // When x == 0 the shift amount is 64, which `wrapping_shr` reduces to 0: the result is bit 63,
        // and shifting that left by one below gives 0, so nothing is flipped, as required.
        let outflank = (1u64 << 63).wrapping_shr(x.leading_zeros()) & p;
        f |= scalar_only((outflank << 1).wrapping_neg() & ray);
        d += 1;
    }
    f
}

/// `x`, unchanged, through an empty assembly block that the optimiser cannot see into: each ray of
/// [`flips_scalar`] starts and ends in one, so LLVM's SLP vectorizer finds nothing to pack into
/// vectors. Left to itself it turns the eight rays into AVX2 code with an emulated vector
/// leading-zero count, which is slower than the scalar rays (perft 11 on an AVX2-only Zen 1:
/// 1.06 s vectorized, 0.81 s with these barriers).
#[inline(always)]
fn scalar_only(mut x: u64) -> u64 {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: the assembly is empty (a comment naming the register): it executes no instruction,
    // touches no memory, stack or flags, and hands back the register's value unchanged.
    unsafe {
        std::arch::asm!("/* {0} */", inout(reg) x, options(pure, nomem, nostack, preserves_flags));
    }
    x
}

/// Number of discs flipped by playing `sq`; see [`flips`].
#[inline]
pub fn count_flips(sq: usize, p: u64, o: u64) -> u32 {
    flips(sq, p, o).count_ones()
}

/// Number of discs flipped by playing `sq` when it is the last empty square of the board: every
/// other square holds a disc of `p` or of the opponent, so the opponent is known from `p` alone
/// (`count_last_flips(sq, p) == count_flips(sq, p, !p & !(1 << sq))`).
///
/// Each of the four lines through `sq` is gathered into one byte (the row by a shift; the column
/// and the two diagonals by a mask and a multiplication that moves each of their squares into the
/// top byte, one bit per rank or file, without carries) and looked up in `LAST_FLIPS`: four
/// multiplications and four small loads instead of the eight rays of [`flips`]. No PEXT: it is as
/// fast as a multiplication on Intel and AMD Zen 3+, but microcoded and many times slower on Zen 1
/// and Zen 2, which have BMI2 all the same.
#[inline]
pub fn count_last_flips(sq: usize, p: u64) -> u32 {
    let sq = sq & 63;
    let (file, rank) = (sq & 7, sq >> 3);
    let [diagonal, anti] = DIAGONALS[sq];
    let row = (p >> (rank * 8)) & 0xFF;
    let column = (((p >> file) & FILE_A).wrapping_mul(COLUMN_GATHER)) >> 56;
    let diagonal = ((p & diagonal).wrapping_mul(FILE_A)) >> 56;
    let anti = ((p & anti).wrapping_mul(FILE_A)) >> 56;
    let by_file = &LAST_FLIPS[file];
    u32::from(by_file[row as usize])
        + u32::from(LAST_FLIPS[rank][column as usize])
        + u32::from(by_file[diagonal as usize])
        + u32::from(by_file[anti as usize])
}

/// The a-file: one bit in each byte. Multiplying a set of squares that lie on distinct files by it
/// sums all their bytes into the top byte, bit `f` holding file `f`, with no carries (each file
/// lands on its own bit).
const FILE_A: u64 = 0x0101_0101_0101_0101;

/// Multiplying the a-file's squares (bit `8r` for rank `r`) by this moves rank `r` to bit `56 + r`:
/// the factor holds `2^(56 - 7k)` for `k` in 0..8, and every other product lands on a distinct bit
/// below 56 or above 63, so nothing carries into the top byte.
const COLUMN_GATHER: u64 = 0x0102_0408_1020_4080;

/// For each square, the masks of its two diagonals (south-west to north-east, then south-east to
/// north-west), the square itself included.
static DIAGONALS: [[u64; 2]; 64] = build_diagonals();

const fn build_diagonals() -> [[u64; 2]; 64] {
    let mut out = [[0u64; 2]; 64];
    let mut sq = 0;
    while sq < 64 {
        let rays = &RAYS[sq];
        out[sq] = [
            rays[3] | rays[7] | (1u64 << sq),
            rays[1] | rays[5] | (1u64 << sq),
        ];
        sq += 1;
    }
    out
}

/// Extracts the bits of `x` under `mask` into the low bits, in ascending order (PEXT where the
/// CPU has BMI2).
#[inline]
pub fn pext(x: u64, mask: u64) -> u64 {
    #[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
    {
        // SAFETY: compiled only when BMI2 is enabled for the whole build, so the CPU running this
        // binary has it (see docs/building.md).
        unsafe { std::arch::x86_64::_pext_u64(x, mask) }
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "bmi2")))]
    {
        let (mut m, mut out, mut bit) = (mask, 0u64, 0);
        while m != 0 {
            let low = m & m.wrapping_neg();
            if x & low != 0 {
                out |= 1 << bit;
            }
            bit += 1;
            m &= m - 1;
        }
        out
    }
}

/// Flips along one line of 8 cells when the mover plays the line's only empty cell: indexed by
/// `[position][mover's cells]`, every other cell being the opponent's. A line shorter than 8 (a
/// diagonal) is read with its missing cells as 0, that is as opponent discs: a run of them can never
/// end on a mover's disc, so it flips nothing, as the board's edge would.
static LAST_FLIPS: [[u8; 256]; 8] = build_last_flips();

const fn build_last_flips() -> [[u8; 256]; 8] {
    let mut table = [[0u8; 256]; 8];
    let mut pos = 0;
    while pos < 8 {
        let mut cells = 0;
        while cells < 256 {
            let mut count = 0;
            // Towards the end of the line: opponent cells (0 bits) up to a mover's cell.
            let mut i = pos + 1;
            while i < 8 && (cells >> i) & 1 == 0 {
                i += 1;
            }
            if i < 8 {
                count += i - pos - 1;
            }
            // Towards the start.
            let mut j = pos;
            while j > 0 && (cells >> (j - 1)) & 1 == 0 {
                j -= 1;
            }
            if j > 0 {
                count += pos - j;
            }
            table[pos][cells] = count as u8;
            cells += 1;
        }
        pos += 1;
    }
    table
}

/// Squares adjacent (in the 8 directions) to any square of `b`.
#[inline]
pub const fn neighbours(b: u64) -> u64 {
    let h = ((b << 1) & 0xFEFE_FEFE_FEFE_FEFE) | ((b >> 1) & 0x7F7F_7F7F_7F7F_7F7F);
    let row = b | h;
    h | (row << 8) | (row >> 8)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rays_have_expected_lengths() {
        // a1 (0): east 7, north 7, north-east 7, nothing towards lower indices or north-west.
        assert_eq!(RAYS[0][0].count_ones(), 7);
        assert_eq!(RAYS[0][1], 0);
        assert_eq!(RAYS[0][2].count_ones(), 7);
        assert_eq!(RAYS[0][3].count_ones(), 7);
        assert!(RAYS[0][4..].iter().all(|&r| r == 0));
        // d4 (27): west 3, south 3, south-west 3, south-east 3.
        assert_eq!(RAYS[27][4].count_ones(), 3);
        assert_eq!(RAYS[27][6].count_ones(), 3);
    }

    /// The next state of a xorshift generator (random boards for the tests below).
    fn xorshift(mut x: u64) -> u64 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    }

    #[test]
    fn last_flip_counts_match_the_general_count() {
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..20_000 {
            // A random full board but one square.
            x = xorshift(x);
            let sq = (x >> 58) as usize;
            let p = x.rotate_left(17) & !(1u64 << sq);
            let o = !p & !(1u64 << sq);
            for (a, b) in [(p, o), (o, p)] {
                let expected = flips_scalar(sq, a, b).count_ones();
                assert_eq!(count_last_flips(sq, a), expected, "{sq} {a:#x}");
            }
        }
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn vector_flips_match_the_scalar_ones_where_the_cpu_has_them() {
        if !(is_x86_feature_detected!("avx512vl")
            && is_x86_feature_detected!("avx512cd")
            && is_x86_feature_detected!("avx2"))
        {
            eprintln!("this CPU lacks AVX-512VL/CD: vector flips not checked here");
            return;
        }
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        for _ in 0..50_000 {
            x = xorshift(x);
            let sq = (x >> 58) as usize;
            // Random disjoint discs (about a quarter each) with `sq` empty.
            let y = x.rotate_left(23).wrapping_mul(0x9E37_79B9_7F4A_7C15);
            let p = x & !y & !(1u64 << sq);
            let o = y & !x & !(1u64 << sq);
            // SAFETY: the instructions `flips_avx512` is compiled for were detected above.
            let v = unsafe { flips_avx512(sq, p, o) };
            assert_eq!(v, flips_scalar(sq, p, o), "{sq} {p:#x} {o:#x}");
        }
    }

    #[test]
    fn neighbours_do_not_wrap() {
        // h1's neighbours: g1, g2, h2; never a2 or a1.
        let n = neighbours(1 << 7);
        assert_eq!(n, (1 << 6) | (1 << 14) | (1 << 15));
        let n = neighbours(1 << 8); // a2
        assert_eq!(n, 1 | 2 | (1 << 9) | (1 << 16) | (1 << 17));
    }
}
