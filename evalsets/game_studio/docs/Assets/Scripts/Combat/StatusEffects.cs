using System.Collections.Generic;
using UnityEngine;

namespace Fernhollow.Cinderglass.Combat
{
    public enum StatusType
    {
        Shielded,
        Bleed,
        Burn
    }

    /// <summary>
    /// Timed status effects on a character. "Shielded" here is the ward status granted by a Ward
    /// Sigil or the Bulwark skill, not the shield item you block with (that is <c>ShieldBlock</c>).
    /// </summary>
    public class StatusEffects
    {
        public const float ShieldedDurationSeconds = 8f;     // 6 until 1.2.0
        public const int ShieldedAbsorbAmount = 40;          // total soaked before it breaks; 30 until 1.2.0

        public const float BleedTickSeconds = 0.5f;
        public const int BleedDamagePerTick = 3;         // per stack, ignores armor
        public const float BleedDurationSeconds = 4f;
        public const int BleedMaxStacks = 5;

        public const float BurnDurationSeconds = 5f;
        public const float BurnFractionOfMaxHealthPerSecond = 0.02f;

        private float _shieldedUntil;
        private int _shieldRemaining;
        private readonly List<float> _bleedStacksUntil = new List<float>();
        private float _nextBleedTick;
        private float _burnUntil;

        public bool Has(StatusType type, float now)
        {
            switch (type)
            {
                case StatusType.Shielded: return now < _shieldedUntil && _shieldRemaining > 0;
                case StatusType.Bleed: return _bleedStacksUntil.Exists(t => t > now);
                default: return now < _burnUntil;
            }
        }

        /// <summary>Applying Shielded again refreshes it to full; it never stacks.</summary>
        public void ApplyShielded(float now)
        {
            _shieldedUntil = now + ShieldedDurationSeconds;
            _shieldRemaining = ShieldedAbsorbAmount;
        }

        public void ApplyBleed(float now)
        {
            _bleedStacksUntil.RemoveAll(t => t <= now);
            if (_bleedStacksUntil.Count >= BleedMaxStacks) _bleedStacksUntil.RemoveAt(0);
            _bleedStacksUntil.Add(now + BleedDurationSeconds);
        }

        public void ApplyBurn(float now)
        {
            _burnUntil = now + BurnDurationSeconds;
        }

        /// <summary>Stepping into water puts out Burn.</summary>
        public void OnEnteredWater()
        {
            _burnUntil = 0f;
        }

        /// <summary>Soaks incoming damage with the Shielded status and returns what gets through.</summary>
        public int AbsorbIncoming(int damage, float now)
        {
            if (!Has(StatusType.Shielded, now)) return damage;
            int soaked = Mathf.Min(damage, _shieldRemaining);
            _shieldRemaining -= soaked;
            return damage - soaked;
        }

        /// <summary>Damage over time owed this frame (bleed ticks plus burn).</summary>
        public float Tick(float now, float deltaTime, int maxHealth)
        {
            float owed = 0f;
            _bleedStacksUntil.RemoveAll(t => t <= now);
            if (_bleedStacksUntil.Count > 0 && now >= _nextBleedTick)
            {
                owed += BleedDamagePerTick * _bleedStacksUntil.Count;
                _nextBleedTick = now + BleedTickSeconds;
            }
            if (now < _burnUntil) owed += maxHealth * BurnFractionOfMaxHealthPerSecond * deltaTime;
            return owed;
        }
    }
}
