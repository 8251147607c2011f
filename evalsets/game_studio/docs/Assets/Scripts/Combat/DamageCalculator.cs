using UnityEngine;

namespace Fernhollow.Cinderglass.Combat
{
    public struct HitContext
    {
        public float WeaponDamage;
        public int AttackerStrength;
        public int AttackerDexterity;
        public float BonusCritChance;   // trinkets, e.g. ember_charm adds 0.05
        public bool FromBehind;
        public bool AttackerIsPlayer;
        public int TargetArmor;
    }

    /// <summary>
    /// The one place where hit damage is worked out. Design reference: design/combat.md, which can
    /// lag behind this file; the constants here are what ships.
    /// </summary>
    public static class DamageCalculator
    {
        public const float StrengthScalingPerPoint = 0.03f;
        public const float BaseCritChance = 0.05f;
        public const float CritChancePerDexterity = 0.004f;
        public const float MaxCritChance = 0.5f;

        /// <summary>Damage multiplier on a critical hit: 1.75 since 1.2.0 (2.0 before).</summary>
        public const float CritMultiplier = 1.75f;

        public const float BackstabMultiplier = 1.5f;   // player attacks only
        public const float ArmorConstant = 100f;
        public const int MinimumDamage = 1;

        public static float CritChance(int dexterity, float bonus)
        {
            return Mathf.Min(MaxCritChance, BaseCritChance + CritChancePerDexterity * dexterity + bonus);
        }

        /// <summary>
        /// Damage of one hit before status effects: weapon damage scaled by strength, then the crit
        /// and backstab multipliers, then armor, which keeps 100 / (100 + armor) of what is left.
        /// A hit that lands always does at least <see cref="MinimumDamage"/>.
        /// </summary>
        public static int Compute(HitContext hit, bool isCrit)
        {
            float damage = hit.WeaponDamage * (1f + StrengthScalingPerPoint * hit.AttackerStrength);
            if (isCrit) damage *= CritMultiplier;
            if (hit.FromBehind && hit.AttackerIsPlayer) damage *= BackstabMultiplier;
            damage *= ArmorConstant / (ArmorConstant + Mathf.Max(0, hit.TargetArmor));
            return Mathf.Max(MinimumDamage, Mathf.RoundToInt(damage));
        }

        public static int Roll(HitContext hit, System.Random rng, out bool isCrit)
        {
            isCrit = rng.NextDouble() < CritChance(hit.AttackerDexterity, hit.BonusCritChance);
            return Compute(hit, isCrit);
        }

        // A frontal hit on a raised shield item loses that shield's block_fraction (items.json).
        // Blocking happens after Compute and before the Shielded status absorbs anything.
        public static int ApplyBlock(int damage, float blockFraction)
        {
            return Mathf.Max(0, Mathf.RoundToInt(damage * (1f - blockFraction)));
        }
    }
}
