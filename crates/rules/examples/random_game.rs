//! A whole base game between two players who choose at random: `cargo run -p carc-rules
//! --example random_game`. The rules deal no chance: this program draws the tiles.
use carc_rules::{Action, Effects, Game, Move, Phase, Pos, Rotation, Setup};

fn main() -> Result<(), carc_rules::RuleViolation> {
    let mut seed: u64 = 1;
    let mut random = |n: u32| {
        seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1);
        ((seed >> 33) % u64::from(n)) as u32
    };
    let mut game = Game::new(Setup::base(2))?;
    let (mut fx, mut moves) = (Effects::quiet(), Vec::<Move>::new());
    let tile = game.tiles().start_tile().unwrap();
    let (at, rotation) = (Pos::new(0, 0), Rotation::default());
    game.apply(&Action::PlaceStart { tile, at, rotation }, &mut fx)?;
    while !game.is_over() {
        if let Phase::Draw = game.phase() {
            let tile = game.tile_in_bag(random(game.bag_left())).unwrap();
            game.apply(&Action::Draw { tile }, &mut fx)?;
        }
        game.legal_moves(&mut moves);
        match moves.len() as u32 {
            0 => game.apply(&Action::SetAside, &mut fx)?,
            n => (moves[random(n) as usize].actions()).try_for_each(|a| game.apply(&a, &mut fx))?,
        }
    }
    println!("final scores: {:?}", game.scores());
    Ok(())
}
