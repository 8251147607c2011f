using System;
using UnityEngine;

namespace Fernhollow.Cinderglass.Player
{
    /// <summary>
    /// Character level, experience and attributes. Not to be confused with map levels
    /// (scenes loaded by <c>LevelLoader</c>), which are numbered 1 to 6.
    /// </summary>
    [Serializable]
    public class PlayerStats
    {
        public const int MaxLevel = 35;               // raised from 30 in 1.2.0 for the Ashen Trials
        public const int BaseXp = 120;
        public const float XpExponent = 1.5f;
        public const int BaseMaxHealth = 100;
        public const int HealthPerLevel = 8;
        public const int HealthPerVitality = 4;
        public const int AttributePointsPerLevel = 1;
        public const int BonusPointEveryNLevels = 5;
        public const int RespecGoldPerLevel = 50;

        public int Level = 1;
        public int Experience;
        public int UnspentPoints;
        public int Strength = 5;
        public int Dexterity = 5;
        public int Vitality = 5;
        public int Luck = 1;
        public int RespecsUsed;

        public event Action<int> LevelledUp;

        public int MaxHealth => BaseMaxHealth + HealthPerLevel * (Level - 1) + HealthPerVitality * (Vitality - 5);

        /// <summary>Experience needed to go from <paramref name="level"/> to the next character level.</summary>
        public static int XpToNextLevel(int level)
        {
            return Mathf.RoundToInt(BaseXp * Mathf.Pow(level, XpExponent));
        }

        public void AddExperience(int amount)
        {
            if (Level >= MaxLevel) return;   // XP earned at the cap is discarded
            Experience += amount;
            while (Level < MaxLevel && Experience >= XpToNextLevel(Level))
            {
                Experience -= XpToNextLevel(Level);
                Level++;
                UnspentPoints += AttributePointsPerLevel;
                if (Level % BonusPointEveryNLevels == 0) UnspentPoints++;
                LevelledUp?.Invoke(Level);
            }
            if (Level >= MaxLevel) Experience = 0;
        }

        /// <summary>
        /// Gold cost of resetting all attribute points at the Mirror Shrine. The first respec on a
        /// save is free; after that it costs <see cref="RespecGoldPerLevel"/> per character level.
        /// </summary>
        public int RespecCost()
        {
            return RespecsUsed == 0 ? 0 : RespecGoldPerLevel * Level;
        }
    }
}
