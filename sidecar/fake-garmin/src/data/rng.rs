//! A tiny deterministic pseudo-random generator (splitmix64), so the data set depends only on the
//! seed and the anchor date — no `rand` crate, no global state, identical bytes on every run.

/// splitmix64 state. Cheap to create; derive one per activity/day so that changing one part of
/// the data set never shifts the random stream of another.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator seeded with `seed`.
    pub fn new(seed: u64) -> Self {
        Self(seed)
    }

    /// A generator for one named part of the data set (`salt` picks the part, e.g. a day number).
    pub fn derive(seed: u64, salt: u64) -> Self {
        let mut r = Self(seed ^ salt.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        r.next_u64();
        Self(r.next_u64())
    }

    /// Next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `[0, 1)`.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Uniform in `[lo, hi)`.
    pub fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.unit()
    }

    /// Uniform integer in `lo..=hi`.
    pub fn int(&mut self, lo: i64, hi: i64) -> i64 {
        if hi <= lo {
            return lo;
        }
        let span = (hi - lo + 1) as u64;
        lo + (self.next_u64() % span) as i64
    }

    /// True with probability `p`.
    pub fn chance(&mut self, p: f64) -> bool {
        self.unit() < p
    }

    /// Bell-ish noise with mean 0 and standard deviation 1 (triangular: sum of two uniforms; no
    /// libm, one 64-bit draw).
    pub fn noise(&mut self) -> f64 {
        let x = self.next_u64();
        let a = (x >> 32) as f64 / 4_294_967_296.0;
        let b = (x & 0xffff_ffff) as f64 / 4_294_967_296.0;
        (a + b - 1.0) * 2.449_489_742_783_178
    }

    /// One element of a non-empty slice.
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[(self.next_u64() % items.len() as u64) as usize]
    }

    /// A UUID-shaped hex string (version 4 layout), for gear, events and activity UUIDs.
    pub fn uuid(&mut self) -> String {
        let a = self.next_u64();
        let b = self.next_u64();
        format!(
            "{:08x}-{:04x}-4{:03x}-{:04x}-{:012x}",
            a >> 32,
            (a >> 16) & 0xffff,
            a & 0x0fff,
            0x8000 | ((b >> 48) & 0x3fff),
            b & 0xffff_ffff_ffff
        )
    }
}

#[cfg(test)]
mod tests {
    use super::Rng;

    #[test]
    fn same_seed_gives_same_stream() {
        let a: Vec<u64> = (0..5)
            .map({
                let mut r = Rng::new(7);
                move |_| r.next_u64()
            })
            .collect();
        let mut r = Rng::new(7);
        assert_eq!(a, (0..5).map(|_| r.next_u64()).collect::<Vec<_>>());
    }

    #[test]
    fn int_stays_in_bounds() {
        let mut r = Rng::new(1);
        assert!((0..1000).map(|_| r.int(3, 5)).all(|v| (3..=5).contains(&v)));
    }
}
