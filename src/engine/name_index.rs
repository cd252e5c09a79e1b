//! Lookups of compiled-in names (regions, VM sizes) by hash: one FNV-1a pass over the
//! name and a binary search over sorted hashes, where an ordered map compares the name
//! with a string at every level of its tree.

/// FNV-1a over bytes, with the 64-bit offset basis and prime of its specification
/// (Fowler, Noll and Vo; IETF draft-eastlake-fnv): cheap and allocation-free.
fn fnv1a(name: &[u8]) -> u64 {
    name.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// Items by name, sorted by the name's hash.
#[derive(Debug)]
pub struct NameIndex<K, V> {
    entries: Vec<(u64, K, V)>,
}

impl<K, V> Default for NameIndex<K, V> {
    fn default() -> Self {
        Self {
            entries: Vec::new(),
        }
    }
}

impl<K: AsRef<[u8]>, V> NameIndex<K, V> {
    /// The index of `(name, item)` pairs.
    pub fn new(items: impl IntoIterator<Item = (K, V)>) -> Self {
        let mut entries: Vec<(u64, K, V)> = items
            .into_iter()
            .map(|(k, v)| (fnv1a(k.as_ref()), k, v))
            .collect();
        entries.sort_unstable_by_key(|e| e.0);
        Self { entries }
    }

    /// The item named exactly `name`.
    pub fn find(&self, name: &[u8]) -> Option<&V> {
        let h = fnv1a(name);
        let start = self.entries.partition_point(|e| e.0 < h);
        self.entries[start..]
            .iter()
            .take_while(|e| e.0 == h)
            .find(|e| e.1.as_ref() == name)
            .map(|e| &e.2)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_every_name_and_nothing_else() {
        let names = ["westeurope", "eastus", "eastus2", "", "germanywestcentral"];
        let index = NameIndex::new(names.iter().copied().zip(0..));
        for (i, n) in names.iter().enumerate() {
            assert_eq!(index.find(n.as_bytes()), Some(&i), "{n}");
        }
        for absent in ["westeurop", "EASTUS", "eastus3", " eastus"] {
            assert_eq!(index.find(absent.as_bytes()), None, "{absent}");
        }
    }
}
