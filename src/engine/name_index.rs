//! Lookups of compiled-in names (regions, VM sizes) by hash: one FNV-1a pass over the
//! name and a binary search over sorted hashes, where an ordered map compares the name
//! with a string at every level of its tree.

/// FNV-1a over bytes: cheap and allocation-free.
pub fn fnv1a(name: &[u8]) -> u64 {
    name.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// Names with the position of their item, sorted by hash.
#[derive(Debug, Default)]
pub struct NameIndex<K> {
    keys: Vec<(u64, K, usize)>,
}

impl<K: AsRef<[u8]>> NameIndex<K> {
    /// The index of `names`: the `i`-th name finds item `i`.
    pub fn new(names: impl IntoIterator<Item = K>) -> Self {
        let mut keys: Vec<(u64, K, usize)> = names
            .into_iter()
            .enumerate()
            .map(|(i, k)| (fnv1a(k.as_ref()), k, i))
            .collect();
        keys.sort_unstable_by_key(|k| k.0);
        Self { keys }
    }

    /// The position of the item named exactly `name`.
    pub fn find(&self, name: &[u8]) -> Option<usize> {
        let h = fnv1a(name);
        let start = self.keys.partition_point(|k| k.0 < h);
        self.keys[start..]
            .iter()
            .take_while(|k| k.0 == h)
            .find(|k| k.1.as_ref() == name)
            .map(|k| k.2)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_every_name_and_nothing_else() {
        let names = ["westeurope", "eastus", "eastus2", "", "germanywestcentral"];
        let index = NameIndex::new(names);
        for (i, n) in names.iter().enumerate() {
            assert_eq!(index.find(n.as_bytes()), Some(i), "{n}");
        }
        for absent in ["westeurop", "EASTUS", "eastus3", " eastus"] {
            assert_eq!(index.find(absent.as_bytes()), None, "{absent}");
        }
    }
}
