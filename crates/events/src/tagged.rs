//! One definition, two decoders: an internally tagged enum (`{"type":"tile_placed",…}`) and
//! an externally tagged *twin* of it with the same variants, fields and field attributes,
//! generated together by [`tagged_enum!`].
//!
//! Why a twin: serde's derive for an internally tagged enum cannot know the variant before it
//! has seen the tag, so it buffers every entry of the object into its private `Content` and
//! decodes the variant from that buffer — more than half of the cost of reading a log line.
//! The log reader's fast path (`read/flat.rs`) reads `type` by hand first; it then decodes
//! the twin, whose derive asks for the variant by name and streams the remaining entries
//! straight into the variant's fields. Both are derived from the one variant list, so a new
//! variant or field needs nothing beyond its place in that list.
//!
//! The twin only ever decodes; [`From`] turns it into the public enum. It must decide every
//! line exactly as the public enum does, or decline it (the fast path's contract); what holds
//! it there: the macro accepts only `#[serde(tag = …, rename_all = …, deny_unknown_fields)]`
//! and gives the twin the same `rename_all` and `deny_unknown_fields`, every variant and
//! field attribute is copied, and the property tests of `read.rs` compare the two decoders.

/// Defines `$vis enum $name` exactly as written (internally tagged, with its derives, docs and
/// attributes) and a crate-private, decode-only, externally tagged `enum $twin` with the same
/// variants and fields, plus `From<$twin> for $name`.
///
/// The container's serde attribute must be `#[serde(tag = "…", rename_all = "…",
/// deny_unknown_fields)]`: without `deny_unknown_fields` a key given twice that is no field
/// would pass the twin unnoticed (the fast path leans on the attribute for that), so the
/// macro does not match without it. Variants are unit or struct variants.
macro_rules! tagged_enum {
    // Whether a variant's definition has no field list (a unit variant).
    (@no_fields) => {
        true
    };
    (@no_fields { $($field:ident)* }) => {
        false
    };
    (
        $(#[doc = $doc:literal])*
        #[derive($($derive:path),* $(,)?)]
        #[serde(tag = $tag:literal, rename_all = $rename_all:literal, deny_unknown_fields)]
        $vis:vis enum $name:ident => $twin:ident {
            $(
                $(#[$variant_attr:meta])*
                $variant:ident $({
                    $(
                        $(#[$field_attr:meta])*
                        $field:ident : $field_type:ty
                    ),* $(,)?
                })?
            ),* $(,)?
        }
    ) => {
        $(#[doc = $doc])*
        #[derive($($derive),*)]
        #[serde(tag = $tag, rename_all = $rename_all, deny_unknown_fields)]
        $vis enum $name {
            $(
                $(#[$variant_attr])*
                $variant $({
                    $(
                        $(#[$field_attr])*
                        $field: $field_type
                    ),*
                })?
            ),*
        }

        #[doc = concat!(
            "The externally tagged twin of [`", stringify!($name), "`], for decoding once the `",
            $tag, "` is known (see `crate::tagged`)."
        )]
        #[derive(serde::Deserialize)]
        #[serde(rename_all = $rename_all, deny_unknown_fields)]
        // The names are the public enum's (which clippy leaves alone as exported API).
        #[allow(clippy::enum_variant_names)]
        pub(crate) enum $twin {
            $(
                $(#[$variant_attr])*
                $variant $({
                    $(
                        $(#[$field_attr])*
                        $field: $field_type
                    ),*
                })?
            ),*
        }

        impl $name {
            /// A variant without fields: serde's derive for an internally tagged enum ignores
            /// every other entry of such a variant's object, so the reader refuses them itself.
            pub(crate) fn takes_no_fields(&self) -> bool {
                match self {
                    $(
                        $name::$variant $({ $($field: _),* })? => {
                            tagged_enum!(@no_fields $({ $($field)* })?)
                        }
                    )*
                }
            }
        }

        impl From<$twin> for $name {
            fn from(twin: $twin) -> Self {
                match twin {
                    $(
                        $twin::$variant $({ $($field),* })? => $name::$variant $({ $($field),* })?,
                    )*
                }
            }
        }
    };
}

pub(crate) use tagged_enum;
