using NUnit.Framework;
using Fernhollow.Cinderglass.Combat;

namespace Fernhollow.Cinderglass.Tests
{
    public class DamageCalculatorTests
    {
        private static HitContext Hit(float weapon, int strength = 0, int armor = 0)
        {
            return new HitContext { WeaponDamage = weapon, AttackerStrength = strength, TargetArmor = armor };
        }

        [Test]
        public void Compute_NoStrengthNoArmor_ReturnsWeaponDamage()
        {
            Assert.AreEqual(12, DamageCalculator.Compute(Hit(12), isCrit: false));
        }

        [Test]
        public void Compute_TenStrength_AddsThirtyPercent()
        {
            Assert.AreEqual(13, DamageCalculator.Compute(Hit(10, strength: 10), isCrit: false));
        }

        [Test]
        public void Compute_Crit_Deals175Percent()
        {
            // Was 24 (2.0x) before 1.2.0.
            Assert.AreEqual(21, DamageCalculator.Compute(Hit(12), isCrit: true));
        }

        [Test]
        public void Compute_ArmorEqualToConstant_HalvesDamage()
        {
            Assert.AreEqual(10, DamageCalculator.Compute(Hit(20, armor: 100), isCrit: false));
        }

        [Test]
        public void Compute_HugeArmor_NeverBelowMinimum()
        {
            Assert.AreEqual(DamageCalculator.MinimumDamage, DamageCalculator.Compute(Hit(1, armor: 5000), false));
        }

        [Test]
        public void CritChance_VeryHighDexterity_CapsAtHalf()
        {
            Assert.AreEqual(0.5f, DamageCalculator.CritChance(dexterity: 500, bonus: 0f), 1e-6);
        }

        [Test]
        public void ApplyBlock_OakBucklerFraction_KeepsForty()
        {
            Assert.AreEqual(8, DamageCalculator.ApplyBlock(20, 0.6f));
        }
    }
}
