//! `Clone` for the game's state types with a `clone_from` that reuses the target's buffers.
//!
//! A simulated player tries every move of a turn on a copy of the game: with the derived
//! `Clone`, each copy allocated (and later freed) the board's grids, the nine segment columns
//! and the smaller lists, and the first tile put on a copy grew every column again (a clone's
//! capacity is its length). `clone_from` into a copy kept from the previous try copies the
//! same values into the buffers it already has.

/// Implements `Clone` for a struct from the list of all its fields: `clone` clones each field
/// into a struct literal (so a field missing from the list fails to compile), `clone_from`
/// calls each field's `clone_from` (a `Vec` keeps its allocation; a `Copy` field is assigned).
macro_rules! clone_reusing {
    ($ty:ident { $($field:ident),* $(,)? }) => {
        impl Clone for $ty {
            fn clone(&self) -> $ty {
                $ty {
                    $($field: self.$field.clone()),*
                }
            }

            fn clone_from(&mut self, source: &$ty) {
                $(self.$field.clone_from(&source.$field);)*
            }
        }
    };
}

pub(crate) use clone_reusing;
